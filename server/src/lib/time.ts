/** Dates in JSON are `yyyy-MM-dd HH:mm:ss` in server local time (API-NOTES §1.0). */
export function formatDateTime(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '';
  const d = new Date(Number(ms));
  const pad = (n: number) => String(n).padStart(2, '0');
  return (
    `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ` +
    `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`
  );
}
