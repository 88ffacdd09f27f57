import type { AddOptionsRequest } from "./add-options-request.js";

/** One request of a batch: its job's id and its (validated) data. */
export interface BatchRequest {
  readonly id: string;
  readonly request: AddOptionsRequest;
}
