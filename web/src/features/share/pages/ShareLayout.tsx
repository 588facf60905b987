import { Outlet } from 'react-router';
import { useBranding } from '../../../api/branding';
import { LanguageSwitch } from '../../../components/LanguageSwitch';
import { ThemeSwitch } from '../../../components/ThemeSwitch';
import '../../../i18n/drive-texts';

/** Public share pages: the drive's brand, language and theme; no sidebar (spec §2). */
export function ShareLayout() {
  const { name, logo } = useBranding();
  return (
    <div className="nb-share" data-testid="share-layout">
      <header className="nb-share__header">
        <a href="/" className="nb-sidebar__brand" style={{ padding: 0 }}>
          <img src={logo} alt="" />
          <span>{name}</span>
        </a>
        <div style={{ display: 'flex', gap: 4 }}>
          <LanguageSwitch />
          <ThemeSwitch />
        </div>
      </header>
      <main className="nb-share__body">
        <Outlet />
      </main>
    </div>
  );
}
