/**
 * The layer rules of docs/architecture.md, enforced in `npm run lint`.
 *
 * Each folder of src/ sits in one layer and imports only from its own layer's folders or lower
 * ones (a folder may import itself freely). Type-only imports count too: a type pulls its module's
 * meaning upward as surely as a value does. Keep this table and the architecture doc's in step.
 */
const LAYERS = [
  ["domain", "json", "errors"], // the model, the JSON key style, canonical JSON and depth check, the error base and codes: import nothing of ours
  ["derive"], // PURE: catalogue structure -> collections, names, labels
  ["reconcile"], // PURE: desired + last written -> plan, guard
  ["settings"], // the config file's schema (the one home of defaults) and its loading
  ["secrets"], // the one redactor, built from the settings
  ["log", "telemetry", "memory"], // logs and traces: how the rest reports what it does; the heap bound
  ["http"], // undici, errors, retries, in-process limiters
  ["redis"], // connections and the keyspace (every key and queue name)
  ["budgets"], // upstream budgets shared through Redis
  ["state", "history"], // what pim-sync last wrote, and the record of every write
  ["pim", "config-service", "event-platform"], // upstream clients
  ["sync", "add-options", "activation", "events"], // features: never import each other
  ["held"], // held deletions reviewed: the plans the guard held back, their approval
  ["project-runtime"], // one project's clients and stores, for the jobs and the commands
  ["jobs"], // the only folder that imports bullmq
  ["auth", "server", "openapi"], // credentials checks, the fastify app, the API description of its routes
  ["metrics", "trigger", "admin"], // what the HTTP server serves
  ["worker-process", "app", "cli"], // composition: the worker process, the composition root (createApp), the commands
];

const FEATURES = ["sync", "add-options", "activation", "events"];
const pathOf = (folder) => (folder.endsWith("-process") || folder === "project-runtime" ? `^src/${folder}\\.ts$` : `^src/${folder}/`);

const layerRules = LAYERS.flatMap((layer, index) => {
  const higher = LAYERS.slice(index + 1).flat();
  if (higher.length === 0) return [];
  return layer.map((folder) => ({
    name: `layer-${folder}`,
    comment: `src/${folder} may not import a higher layer (${higher.join(", ")}): see docs/architecture.md`,
    severity: "error",
    from: { path: pathOf(folder) },
    to: { path: higher.map(pathOf) },
  }));
});

const featureRules = FEATURES.map((feature) => ({
  name: `feature-${feature}-alone`,
  comment: `features do not import each other: what two features share belongs in a lower layer`,
  severity: "error",
  from: { path: pathOf(feature) },
  to: { path: FEATURES.filter((other) => other !== feature).map(pathOf) },
}));

module.exports = {
  forbidden: [
    ...layerRules,
    ...featureRules,
    {
      name: "every-folder-in-a-layer",
      comment: "a new folder of src/ gets its place in LAYERS above (and in docs/architecture.md) before it imports anything",
      severity: "error",
      from: { path: "^src/", pathNot: [...LAYERS.flat().map(pathOf), "^src/sim/"] },
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
      name: "simulators-outside-production",
      comment: "the simulators are reached only by the commands that start them (sim, demo), loaded on demand",
      severity: "error",
      from: {
        path: "^src/",
        pathNot: ["^src/sim/", "^src/cli/commands/(sim-command|sim-change-command|demo-command|activation-demo)\\.ts$"],
      },
      to: { path: "^src/sim/" },
    },
    {
      name: "simulators-self-contained",
      comment: "a simulator that shared the clients' schemas would share their bugs",
      severity: "error",
      from: { path: "^src/sim/" },
      to: { path: "^src/", pathNot: "^src/sim/" },
    },
    {
      name: "bullmq-only-in-jobs",
      comment: "src/jobs is the only folder that speaks BullMQ (the composition and the dashboard excepted)",
      severity: "error",
      from: { path: "^src/", pathNot: ["^src/jobs/", "^src/admin/", "^src/worker-process\\.ts$", "^src/cli/"] },
      to: { path: "node_modules/bullmq/" },
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
