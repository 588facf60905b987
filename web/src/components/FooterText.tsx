import { useWebsiteRecord } from '../api/account';

/** The administrator's line under the sign-in and share pages (plain text), if any. */
export function FooterText({ className }: { className?: string }) {
  const { data: record } = useWebsiteRecord();
  if (!record?.footerText) return null;
  return (
    <div className={className ?? 'nb-footer-text'} data-testid="footer-text">
      {record.footerText}
    </div>
  );
}
