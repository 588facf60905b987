/**
 * Ids bound in one statement: well under SQLite's (32,766) and PostgreSQL's (65,535) limits on
 * bound parameters, with room for the other conditions.
 */
export const IDS_PER_STATEMENT = 500;

/** `items` in slices a statement may bind. */
export function* slices<T>(items: T[], size = IDS_PER_STATEMENT): Generator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}
