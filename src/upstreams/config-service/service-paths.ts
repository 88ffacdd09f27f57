/**
 * The configuration service's routes in one place: public sources disagree (the help center
 * lists collections at `/api/v1/options_collections/`, the seed API at the path below), so
 * changing a route is a one-line edit here.
 */
export const SERVICE_PATHS = {
  token: "api/v1/auth/token/",
  listCollections: "api/v1/options_collections/options_collections",
  updateOptions: (id: number) => `api/v1/options_collections/${id}/update-options/`,
  addOptions: (id: number) => `api/v1/options_collections/${id}/add-options/`,
} as const;

/** Page size asked for when listing collections. */
export const COLLECTIONS_PAGE_SIZE = 100;
