/**
 * The layer rules of docs/architecture.md, enforced in `npm run lint`.
 *
 * Each top-level folder of src/ is one layer, lowest first in GROUPS; a folder imports only its
 * own group or lower ones. Type-only imports count too: a type pulls its module's meaning upward
 * as surely as a value does. docs/architecture.md's layer table is this list: a test
 * (test/unit/deploy/architecture-table.test.ts) fails when the two differ.
 */
const GROUPS = [
  "core", // the model, JSON, errors; derivation and planning (PURE): nothing of ours
  "settings", // the config file's schema (the one home of defaults) and its loading
  "infra", // the redactor, logs, traces, heap bound, HTTP, Redis and its keyspace, upstream budgets
  "stores", // what pim-sync last wrote, the change history
  "upstreams", // the PIM, configuration-service and Event Platform clients
  "features", // sync (with held review), add-options, Activation, PIM events; project-runtime.ts puts one project's together
  "jobs", // the only group that imports bullmq: catalog, handlers, queues, worker, schedules, admin
  "server", // HTTP serving: the fastify app, auth, OpenAPI, metrics, trigger and admin routes
  "app", // the composition root (createApp) and the worker process
  "cli", // the commands
];

const inGroup = (group) => `^src/${group}/`;

const groupRules = GROUPS.slice(0, -1).map((group, index) => ({
  name: `group-${group}`,
  comment: `src/${group} may not import a higher group (${GROUPS.slice(index + 1).join(", ")}): see docs/architecture.md`,
  severity: "error",
  from: { path: inGroup(group) },
  to: { path: GROUPS.slice(index + 1).map(inGroup) },
}));

/**
 * The sub-folders of src/jobs, lowest first, under the same rule as GROUPS: the handlers with
 * the context they run in; the catalog that names them (and loads them on demand); the queues
 * and what enqueuing needs; the schedules written on them; the admin reads; the worker on top.
 */
const JOB_FOLDERS = ["handlers", "catalog", "queues", "schedules", "admin", "worker"];

const inJobs = (folder) => `^src/jobs/${folder}/`;

const jobFolderRules = JOB_FOLDERS.slice(0, -1).map((folder, index) => ({
  name: `jobs-${folder}`,
  comment: `src/jobs/${folder} may not import a higher folder of src/jobs (${JOB_FOLDERS.slice(index + 1).join(", ")}): see docs/architecture.md`,
  severity: "error",
  from: { path: inJobs(folder) },
  to: { path: JOB_FOLDERS.slice(index + 1).map(inJobs) },
}));

module.exports = {
  forbidden: [
    ...groupRules,
    ...jobFolderRules,
    {
      name: "features-alone",
      comment: "a feature does not import another: what two features share belongs in a lower group",
      severity: "error",
      from: { path: "^src/features/([^/]+)/" },
      to: { path: "^src/features/[^/]+/", pathNot: "^src/features/$1/" },
    },
    {
      // src/jobs' files in one of its folders too: a loose file there, or a folder left out of
      // JOB_FOLDERS, would be a way round the folders' order (catalog → it → queues).
      name: "every-file-in-a-group",
      comment:
        "a new top-level folder of src/ gets its place in GROUPS above, and a new folder of src/jobs its place in JOB_FOLDERS (and in docs/architecture.md), first",
      severity: "error",
      from: { path: "^src/", pathNot: [...GROUPS.filter((group) => group !== "jobs").map(inGroup), ...JOB_FOLDERS.map(inJobs)] },
      to: {},
    },
    {
      name: "no-cycles",
      comment: "a cycle makes two modules one: break it by moving the shared piece down",
      severity: "error",
      from: { path: "^src/" },
      to: { circular: true },
    },
    {
      name: "bullmq-only-in-jobs",
      comment: "src/jobs is the only group that speaks BullMQ",
      severity: "error",
      from: { path: "^src/", pathNot: "^src/jobs/" },
      to: { path: "node_modules/bullmq/" },
    },
    {
      name: "simulators-outside-production",
      comment: "the product reaches the simulators (sim/, outside src/) only from the commands that start them, loaded on demand",
      severity: "error",
      from: {
        path: "^src/",
        pathNot: ["^src/cli/commands/(sim-command|sim-change-command|demo-command|activation-demo)\\.ts$"],
      },
      to: { path: "^sim/" },
    },
    {
      name: "simulators-self-contained",
      comment: "a simulator that shared the clients' schemas would share their bugs",
      severity: "error",
      from: { path: "^sim/" },
      to: { path: "^src/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default"],
      extensions: [".ts", ".js"],
    },
    moduleSystems: ["es6"],
  },
};
