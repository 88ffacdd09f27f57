import type { ErrorCode, LineCounter, YAMLError } from "yaml";

/**
 * What each YAML error means, in our words: the parser's own messages quote the source (its
 * "pretty" form prints the whole line, and some messages embed a few characters of it), and a
 * config line may hold a secret written literally.
 */
const REASONS: Readonly<Record<ErrorCode, string>> = {
  ALIAS_PROPS: "an alias cannot have an anchor or a tag",
  BAD_ALIAS: "an alias is malformed",
  BAD_DIRECTIVE: "a % directive is malformed",
  BAD_DQ_ESCAPE: "a double-quoted string has an invalid escape sequence",
  BAD_INDENT: "bad indentation (or a flow collection not closed)",
  BAD_PROP_ORDER: "anchors and tags must come before the value",
  BAD_SCALAR_START: "a plain value cannot start with this character (quote it)",
  BLOCK_AS_IMPLICIT_KEY: "a mapping is nested on one line (quote a value containing ': ')",
  BLOCK_IN_FLOW: "a block collection inside a flow collection",
  DUPLICATE_KEY: "a key appears twice in one mapping",
  IMPOSSIBLE: "the parser reached an impossible state",
  KEY_OVER_1024_CHARS: "an implicit key is longer than 1024 characters",
  MISSING_CHAR: "a closing quote or bracket is missing",
  MULTILINE_IMPLICIT_KEY: "an implicit key spans several lines",
  MULTIPLE_ANCHORS: "a node has more than one anchor",
  MULTIPLE_DOCS: "the file holds more than one document",
  MULTIPLE_TAGS: "a node has more than one tag",
  NON_STRING_KEY: "a key is not a string",
  RESOURCE_EXHAUSTION: "aliases expand to too much data",
  TAB_AS_INDENT: "tabs are not allowed as indentation",
  TAG_RESOLVE_FAILED: "a tag cannot be resolved",
  UNEXPECTED_TOKEN: "unexpected text (a missing comma, colon or quote?)",
  BAD_COLLECTION_TYPE: "a collection has the wrong type for its tag",
};

/** `line L, column C: <reason>`, never the text of the line. */
export function describeYamlError(error: YAMLError, lines: LineCounter): string {
  const position = lines.linePos(error.pos[0]);
  return `line ${position.line}, column ${position.col}: ${REASONS[error.code] ?? "syntax error"}`;
}
