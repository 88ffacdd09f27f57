/**
 * The config keys that hold credentials for the upstreams, the trigger or the server:
 * `projects[].pim`'s client id, secret, user name and password, `projects[].pim.events`' secrets (the notification one too), `projects[].service`'s token and
 * password, `activation.access_token` and the webhook sink's `activation.orders.sink.token`,
 * `trigger.token`, `server.metrics_token`, and `server.admin.users[]`'s password and token.
 * The commands that never call the upstreams accept them unset; every one of them is removed
 * from logs, errors and answers (src/infra/secrets/redactor-of-settings.ts).
 */
export function isSecretPath(path: readonly (string | number)[]): boolean {
  const [first, , section, key] = path;
  if (first === "server") {
    if (path[1] === "metrics_token") return path.length === 2;
    return path[1] === "admin" && path[2] === "users" && path.length === 5 && (path[4] === "password" || path[4] === "token");
  }
  if (first === "trigger") return path[1] === "token" && path.length === 2;
  if (first === "activation") {
    if (path[1] === "access_token") return path.length === 2;
    return path[1] === "orders" && path[2] === "sink" && path[3] === "token" && path.length === 4;
  }
  if (first === "projects" && path.length === 5 && section === "pim" && key === "events")
    return path[4] === "secret" || path[4] === "secondary_secret" || path[4] === "notification_secret";
  if (first !== "projects" || path.length !== 4) return false;
  if (section === "pim") return key === "client_id" || key === "secret" || key === "username" || key === "password";
  if (section === "service") return key === "token" || key === "password";
  return false;
}
