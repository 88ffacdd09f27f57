/** One add-options request as the CLI takes it: `--options` is the JSON the user types. */
export interface AddOptionsRequest {
  /** 67 when left out. */
  readonly project?: string;
  readonly attribute: string;
  readonly options: string;
}

/** The argument list of `pim-sync add-options --config <path>` for one request; the flags after it (`--once`...) follow. */
export function addOptionsArgs(configPath: string, request: AddOptionsRequest): string[] {
  return [
    "add-options",
    "--config",
    configPath,
    "--project",
    request.project ?? "67",
    "--attribute",
    request.attribute,
    "--options",
    request.options,
  ];
}
