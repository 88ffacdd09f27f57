/** The naming templates docs/configuration.md gives as the defaults: what a config without `naming` gets. */
export const DOCUMENTED_NAMING = {
  select: "{attribute}",
  localizable: "{attribute}-{locale}",
  scopable: "{attribute}-{channel}",
  localizable_scopable: "{attribute}-{locale}-{channel}",
  unit: "{attribute}-unit",
  currency: "{attribute}-currency",
} as const;
