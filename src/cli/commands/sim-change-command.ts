import { z } from "zod";
import { DEFAULT_OAUTH_CLIENT } from "../../../sim/pim/oauth.js";
import { writeLine, type CliIo } from "../cli-io.js";
import { readCommandArgs } from "../parse-command-args.js";
import { UsageError } from "../usage-error.js";

export const SIM_CHANGE_HELP = `Usage: pim-sync sim change ATTRIBUTE OPTION [--label LOCALE=TEXT]... [--pim-url URL]
       pim-sync sim change ATTRIBUTE OPTION --delete [--pim-url URL]

Changes the catalogue of a running \`pim-sync sim\`: creates or updates an option of a select
attribute through the PIM simulator's REST API (PATCH /api/rest/v1/attributes/ATTRIBUTE/options/OPTION,
logged in as the simulator's sample user), or deletes one through the simulator's own control
route (DELETE /sim/attributes/ATTRIBUTE/options/OPTION: Akeneo's REST API cannot delete options,
so this exists only in the simulator). A sim started with --events-to then posts the signed
event of the change (attribute-option.created, .updated or .deleted).

Options:
  --label LOCALE=TEXT  a label of the option (repeatable), e.g. --label en_US=Teal; LOCALE is a
                       PIM locale enabled in the catalogue (en_US, fr_FR, de_DE in the sample)
  --delete             delete the option instead
  --pim-url URL        the PIM simulator (default http://127.0.0.1:8081)
  -h, --help           show this help`;

const DEFAULT_PIM_URL = "http://127.0.0.1:8081";
const TIMEOUT_MS = 10_000;
const tokenAnswer = z.object({ access_token: z.string().min(1) });
const errorAnswer = z.object({
  message: z.string(),
  errors: z.array(z.object({ property: z.string().optional(), message: z.string() })).optional(),
});

function labelsOf(values: readonly string[]): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const value of values) {
    const at = value.indexOf("=");
    if (at <= 0 || at === value.length - 1)
      throw new UsageError(`--label must be LOCALE=TEXT (e.g. en_US=Teal), got '${value}'`, SIM_CHANGE_HELP);
    labels[value.slice(0, at)] = value.slice(at + 1);
  }
  return labels;
}

function pimUrlOf(value: string | undefined): URL {
  const text = value ?? DEFAULT_PIM_URL;
  try {
    const url = new URL(text);
    if (url.protocol === "http:" || url.protocol === "https:") return url;
  } catch {
    // Refused below, with the flag's name.
  }
  throw new UsageError(`--pim-url must be an http(s) URL, got '${text}'`, SIM_CHANGE_HELP);
}

/** The PIM's answer to a refused request, as one line: its status and message. */
async function refusalOf(response: Response): Promise<string> {
  const text = await response.text();
  let message = text.slice(0, 300);
  try {
    const parsed = errorAnswer.safeParse(JSON.parse(text));
    if (parsed.success)
      message = [parsed.data.message, ...(parsed.data.errors ?? []).map((error) => `${error.property ?? "(body)"}: ${error.message}`)].join(
        " ",
      );
  } catch {
    // Not JSON: the text itself.
  }
  return `${response.status}${message === "" ? "" : ` ${message}`}`;
}

export async function runSimChangeCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = readCommandArgs(
    argv,
    io,
    { label: { type: "string", multiple: true }, delete: { type: "boolean" }, "pim-url": { type: "string" } },
    SIM_CHANGE_HELP,
  );
  if (parsed === null) return 0;
  const { values, positionals } = parsed;
  const [attribute, option, ...extra] = positionals;
  if (attribute === undefined || option === undefined || extra.length > 0)
    throw new UsageError("name the attribute and the option: pim-sync sim change ATTRIBUTE OPTION", SIM_CHANGE_HELP);
  const labels = labelsOf(values.label ?? []);
  if (values.delete === true && Object.keys(labels).length > 0) throw new UsageError("--delete takes no --label", SIM_CHANGE_HELP);
  const pim = pimUrlOf(values["pim-url"]);
  const signal = AbortSignal.any([AbortSignal.timeout(TIMEOUT_MS), ...(io.signal ? [io.signal] : [])]);
  const path = `${encodeURIComponent(attribute)}/options/${encodeURIComponent(option)}`;
  const failed = async (response: Response): Promise<number> => {
    writeLine(io.stderr, `${attribute}/${option}: the PIM simulator answered ${await refusalOf(response)}`);
    return 1;
  };

  if (values.delete === true) {
    const response = await fetch(new URL(`/sim/attributes/${path}`, pim), { method: "DELETE", signal });
    if (response.status !== 204) return failed(response);
    writeLine(io.stdout, `${attribute}/${option}: deleted`);
    return 0;
  }
  const client = DEFAULT_OAUTH_CLIENT;
  const login = await fetch(new URL("/api/oauth/v1/token", pim), {
    method: "POST",
    headers: {
      authorization: `Basic ${Buffer.from(`${client.clientId}:${client.secret}`).toString("base64")}`,
      "content-type": "application/json",
    },
    body: JSON.stringify({ grant_type: "password", username: client.username, password: client.password }),
    signal,
  });
  if (!login.ok) return failed(login);
  const token = tokenAnswer.safeParse(await login.json());
  if (!token.success) throw new Error("the PIM simulator's token answer has no access_token");
  const response = await fetch(new URL(`/api/rest/v1/attributes/${path}`, pim), {
    method: "PATCH",
    headers: { authorization: `Bearer ${token.data.access_token}`, "content-type": "application/json" },
    body: JSON.stringify({ code: option, attribute, labels }),
    signal,
  });
  if (response.status !== 201 && response.status !== 204) return failed(response);
  writeLine(io.stdout, `${attribute}/${option}: ${response.status === 201 ? "created" : "updated"}`);
  return 0;
}
