/**
 * The config keys that hold credentials for the upstreams or the trigger: `projects[].pim`'s
 * client id, secret, user name and password, `projects[].service`'s token and password, and
 * `trigger.token`.
 */
export function isSecretPath(path: readonly (string | number)[]): boolean {
  const [first, , section, key] = path;
  if (first === "trigger") return path[1] === "token" && path.length === 2;
  if (first !== "projects" || path.length !== 4) return false;
  if (section === "pim") return key === "client_id" || key === "secret" || key === "username" || key === "password";
  if (section === "service") return key === "token" || key === "password";
  return false;
}
