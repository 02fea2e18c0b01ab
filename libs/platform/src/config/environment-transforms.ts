/**
 * Environment variables are text: these turn them into the values the rules check, and leave
 * anything else as text so that the rule names the setting in its problem.
 */
export const toBool = ({ value }: { value: unknown }) => {
  if (value === undefined || value === '') return undefined;
  if (['1', 'true', 'yes', 'on'].includes(String(value).toLowerCase())) return true;
  if (['0', 'false', 'no', 'off'].includes(String(value).toLowerCase())) return false;
  return value; // left as text so that IsBoolean names the setting
};
export const toInt = ({ value }: { value: unknown }) =>
  value === undefined || value === '' ? undefined : /^-?\d+$/.test(String(value)) ? Number(value) : value;
export const emptyToUndefined = ({ value }: { value: unknown }) => (value === '' ? undefined : value);
/** A comma-separated list of integers; an item that is not one is left as text so that IsInt names the setting. */
export const toIntList = ({ value }: { value: unknown }) =>
  value === undefined || String(value).trim() === ''
    ? undefined
    : String(value)
        .split(',')
        .map((item) => item.trim())
        .map((item) => (/^\d+$/.test(item) ? Number(item) : item));
