/**
 * Link names in a built fabric (topology/builder.ts): `h<id>` for a host's link, `<switch>:<port>-
 * <switch>:<port>` for a link between switches. A `linkOverrides` entry's `match` is a name, or a
 * pattern where `*` stands for any run of characters ("h*" every host link, "*-*" every link
 * between switches, "leaf0:*" the uplinks of leaf0).
 */
export function linkPattern(match: string): RegExp {
  const body = match.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*');
  return new RegExp(`^${body}$`);
}
