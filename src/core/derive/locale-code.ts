/**
 * Locale codes cross two conventions: the PIM's ICU style (`en_US`, `zh_Hant_TW`) and the
 * configuration service's BCP-47 style (`en-US`). Both directions canonicalise case so that a
 * code typed by hand (`EN-us`) still matches the PIM's exact-string label keys.
 */

const ALLOWED_CHARACTERS = /^[A-Za-z0-9_-]+$/;
const SUBTAG_SEPARATOR = /[_-]/;
const SCRIPT = /^[A-Za-z]{4}$/;
const REGION = /^(?:[A-Za-z]{2}|[0-9]{3})$/;

// A catalogue has a handful of locales but converts them once per label: remember the answers.
const serviceLocaleOf = new Map<string, string>();

export function pimLocaleToServiceLocale(code: string): string {
  const known = serviceLocaleOf.get(code);
  if (known !== undefined) return known;
  const converted = canonicalSubtags(code).join("-");
  if (serviceLocaleOf.size < 1000) serviceLocaleOf.set(code, converted);
  return converted;
}

export function serviceLocaleToPimLocale(code: string): string {
  return canonicalSubtags(code).join("_");
}

function canonicalSubtags(code: string): string[] {
  if (code === "") {
    throw new Error("Invalid locale code '': it is empty");
  }
  if (!ALLOWED_CHARACTERS.test(code)) {
    throw new Error(`Invalid locale code '${code}': only letters, digits, '_' and '-' are allowed`);
  }
  const subtags = code.split(SUBTAG_SEPARATOR);
  if (subtags.some((subtag) => subtag === "")) {
    throw new Error(`Invalid locale code '${code}': it has an empty subtag`);
  }
  return subtags.map((subtag, index) => canonicalCase(subtag, index));
}

function canonicalCase(subtag: string, index: number): string {
  if (index === 0) return subtag.toLowerCase();
  if (SCRIPT.test(subtag)) return subtag.charAt(0).toUpperCase() + subtag.slice(1).toLowerCase();
  if (REGION.test(subtag)) return subtag.toUpperCase();
  // Variants and anything else: BCP-47's canonical form is lower case.
  return subtag.toLowerCase();
}
