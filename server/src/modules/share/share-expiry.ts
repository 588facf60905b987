import { ErrorCode, type GenerateShareBody } from '@nimbus/contract';
import { AppError, badParameter } from '../../lib/errors.ts';

/** The last moment a `yyyy-MM-dd HH:mm:ss` date can show: 9999-12-31 23:59:59 server time. */
const LAST_SHOWABLE = new Date(9999, 11, 31, 23, 59, 59, 999).getTime();

const badDate = () =>
  new AppError(
    ErrorCode.BAD_DATE,
    'The expiry date must be a real date: yyyy-MM-dd HH:mm:ss (server time), ISO 8601, or epoch milliseconds',
  );

/**
 * A written date, strictly: `yyyy-MM-dd`, `yyyy-MM-dd HH:mm[:ss]` (or with `T`) in server
 * time, or ISO 8601 with fractions and a zone (`Z`, `±HH:mm`). Every part must exist as
 * written: `2999-02-30` or `25:61:61` are refused, never rolled over into another date.
 */
export function parseDateText(text: string): number | null {
  const m =
    /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?(Z|[+-]\d{2}:\d{2})?)?$/.exec(
      text.trim(),
    );
  if (!m) return null;
  const part = (i: number) => Number(m[i] ?? 0);
  const [year, month, day, hour, minute, second] = [1, 2, 3, 4, 5, 6].map(part) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const ms = Number((m[7] ?? '0').padEnd(3, '0'));
  const zone = m[8];
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return null;
  // the day must exist in that month (the round trip of the parts)
  const probe = new Date(Date.UTC(2000, 0, 1));
  probe.setUTCFullYear(year, month - 1, day);
  if (probe.getUTCMonth() !== month - 1 || probe.getUTCDate() !== day) return null;
  if (zone === undefined) {
    const local = new Date(2000, 0, 1);
    local.setFullYear(year, month - 1, day);
    local.setHours(hour, minute, second, ms);
    return local.getTime();
  }
  let offset = 0;
  if (zone !== 'Z') {
    const zh = Number(zone.slice(1, 3));
    const zm = Number(zone.slice(4, 6));
    if (zh > 23 || zm > 59) return null;
    offset = (zone[0] === '-' ? -1 : 1) * (zh * 60 + zm) * 60_000;
  }
  probe.setUTCHours(hour, minute, second, ms);
  return probe.getTime() - offset;
}

/** `yyyy-MM-dd HH:mm[:ss]` in server time, an ISO date, or epoch ms; null for permanent. */
export function parseExpiry(
  body: Pick<GenerateShareBody, 'expireDate' | 'expireDays'>,
  now: number,
): number | null {
  if (body.expireDays !== undefined) return now + body.expireDays * 86400_000;
  const value = body.expireDate;
  if (value === null || value === undefined || value === '') return null;
  const when = typeof value === 'number' ? value : parseDateText(value);
  // a date that cannot be shown as yyyy-MM-dd HH:mm:ss is no date either
  if (when === null || !Number.isSafeInteger(when) || Math.abs(when) > LAST_SHOWABLE)
    throw badDate();
  if (when <= now) throw badParameter('The expiry date must be in the future');
  return when;
}
