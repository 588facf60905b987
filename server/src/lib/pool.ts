/**
 * Disk work on many items, a few at a time: at most `limit` in flight, a new one started as
 * soon as one ends (the disk's queue stays short, the loop free). Answers the results in the
 * items' order. After a failure no new item starts, and the failure is told only once every
 * started item has ended, so a caller that undoes the work sees all of it.
 */
export async function inPool<T, R>(
  items: readonly T[],
  work: (item: T) => Promise<R>,
  limit = 16,
): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  let failure: { reason: unknown } | undefined;
  const worker = async () => {
    while (!failure && next < items.length) {
      const at = next++;
      try {
        out[at] = await work(items[at]!);
      } catch (reason) {
        failure ??= { reason };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure) throw failure.reason;
  return out;
}
