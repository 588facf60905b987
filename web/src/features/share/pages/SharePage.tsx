import {
  ClockCircleOutlined,
  CloudServerOutlined,
  LinkOutlined,
  LockOutlined,
} from '@ant-design/icons';
import type { ShareFacts } from '@nimbus/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Avatar, Button, Card, Input, Result, Space, Spin, Typography, type InputRef } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import { useBranding } from '../../../api/branding';
import { ApiError } from '../../../api/client';
import { EmptyState } from '../../../components/EmptyState';
import { avatarColor, avatarUrl } from '../../../lib/avatar';
import { useAppStore } from '../../../stores/app';
import { useSessionStore } from '../../../stores/session';
import { FooterText } from '../../../components/FooterText';
import { FileIcon } from '../../../components/FileIcon';
import { shareFolderQuery, shareKeys, validShareCode } from '../api';
import { MountDialog } from '../components/MountDialog';
import { ShareBrowser } from '../components/ShareBrowser';
import { useShareTokens } from '../../../stores/share-tokens';
import '../share.css';

/** The share's public facts: who shared what, until when. */
function ShareHeader({ facts }: { facts: ShareFacts }) {
  const { t } = useTranslation('share');
  const name = facts.sharer.showName || facts.sharer.username;
  return (
    <div className="nb-share-head" data-testid="share-header">
      <Avatar
        size={44}
        src={avatarUrl(facts.sharer.avatar)}
        style={{ background: avatarColor(name), flex: 'none' }}
      >
        {name.slice(0, 1).toUpperCase()}
      </Avatar>
      <div className="nb-share-head__text">
        <Typography.Text type="secondary" data-testid="share-sharer">
          {t('page.sharedBy', { name })}
        </Typography.Text>
        <div className="nb-share-head__title">
          <FileIcon
            item={{ name: facts.fileName, suffix: '', isFolder: facts.isFolder }}
            size={24}
          />
          <Typography.Title level={1} className="nb-share-head__name" data-testid="share-name">
            {facts.fileName}
          </Typography.Title>
          {facts.isPrivacy ? <LockOutlined className="nb-share-head__lock" /> : null}
        </div>
        <Typography.Text
          type="secondary"
          className="nb-share-head__expiry"
          data-testid="share-expiry"
        >
          <ClockCircleOutlined />{' '}
          {facts.expireDate
            ? t('page.expiresAt', { date: facts.expireDate.slice(0, 16) })
            : t('page.permanent')}
        </Typography.Text>
      </div>
    </div>
  );
}

/** The code prompt of a private share (spec §4 share access); `?code=` fills it in. */
function CodePrompt({
  share,
  facts,
  initialCode,
}: {
  share: string;
  facts: ShareFacts;
  initialCode: string;
}) {
  const { t } = useTranslation('share');
  const queryClient = useQueryClient();
  const [code, setCode] = useState(initialCode);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const input = useRef<InputRef>(null);

  useEffect(() => input.current?.focus(), []);

  const submit = async () => {
    if (!code.trim() || busy) return;
    setBusy(true);
    setError(null);
    try {
      const token = await validShareCode(facts.shareId, code.trim());
      useShareTokens.getState().remember([share, facts.shareId, facts.shortId], token);
      await queryClient.invalidateQueries({ queryKey: shareKeys.visit(share) });
    } catch (failure) {
      setError(
        failure instanceof ApiError && failure.code === 6
          ? t('page.wrongCode')
          : failure instanceof Error
            ? failure.message
            : String(failure),
      );
      input.current?.select();
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card className="nb-share-code" data-testid="share-code-prompt">
      <div className="nb-share-code__icon">
        <LockOutlined />
      </div>
      <Typography.Title level={2} className="nb-share-code__title">
        {t('page.codeTitle')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('page.codeHint')}</Typography.Paragraph>
      <Space.Compact block>
        <Input
          ref={input}
          size="large"
          value={code}
          status={error ? 'error' : undefined}
          placeholder={t('page.codePlaceholder')}
          autoComplete="off"
          onChange={(event) => setCode(event.target.value)}
          onPressEnter={() => void submit()}
          data-testid="share-code-input"
          aria-label={t('page.codePlaceholder')}
        />
        <Button
          size="large"
          type="primary"
          loading={busy}
          onClick={() => void submit()}
          data-testid="share-code-submit"
        >
          {t('page.open')}
        </Button>
      </Space.Compact>
      {error ? (
        <Typography.Text
          type="danger"
          className="nb-share-code__error"
          data-testid="share-code-error"
          role="alert"
        >
          {error}
        </Typography.Text>
      ) : null}
    </Card>
  );
}

/** Expired, cancelled or otherwise unavailable: one clear message. */
function ShareProblem({ error }: { error: unknown }) {
  const { t } = useTranslation('share');
  const { name } = useBranding();
  const code = error instanceof ApiError ? error.code : 0;
  const title =
    code === 19 ? t('page.expired') : code === 23 ? t('page.cancelled') : t('page.unavailable');
  return (
    <Result
      status={code === 23 ? '404' : 'warning'}
      title={title}
      data-testid="share-problem"
      data-code={code}
      extra={
        <Link to="/">
          <Button>{t('page.home', { name })}</Button>
        </Link>
      }
    />
  );
}

/** /s, /s/:id and the mobile /s_m: a share page for visitors, no sign-in needed. */
export function SharePage() {
  const { t } = useTranslation('share');
  const params = useParams();
  const [search, setSearch] = useSearchParams();
  const share = params.id ?? search.get('share') ?? search.get('id') ?? '';
  const path = search.get('path') || '/';
  const mobile = useAppStore((s) => s.device === 'mobile');
  const signedIn = Boolean(useSessionStore((s) => s.token));
  const [mounting, setMounting] = useState(false);
  // the token earned for this share re-renders the page once the code was right
  useShareTokens((s) => s.tokens[share]?.token);

  const root = useQuery({
    ...shareFolderQuery(share, '/', 1),
    enabled: Boolean(share),
    retry: false,
  });
  const facts = root.data?.facts;

  useEffect(() => {
    if (facts?.fileName) document.title = facts.fileName;
  }, [facts?.fileName]);

  if (!share) {
    return (
      <section className="nb-files" data-testid="share-page" data-share-id="">
        <div className="nb-files__body">
          <EmptyState
            icon={<LinkOutlined />}
            title={t('noLink.title')}
            description={t('noLink.description')}
          />
        </div>
      </section>
    );
  }

  const navigate = (next: string) => {
    const params = new URLSearchParams(search);
    if (next === '/') params.delete('path');
    else params.set('path', next);
    setSearch(params);
  };

  return (
    <section
      className={`nb-share-page${mobile ? ' is-mobile' : ''}`}
      data-testid="share-page"
      data-share-id={share}
    >
      {root.isPending ? (
        <div className="nb-share-page__loading">
          <Spin size="large" />
        </div>
      ) : root.isError || !facts ? (
        <ShareProblem error={root.error} />
      ) : (
        <>
          <ShareHeader facts={facts} />
          {facts.needCode ? (
            <CodePrompt share={share} facts={facts} initialCode={search.get('code') ?? ''} />
          ) : (
            <ShareBrowser
              share={share}
              facts={facts}
              path={path}
              onNavigate={navigate}
              mobile={mobile}
              extra={
                signedIn && facts.canMount ? (
                  <Button
                    icon={<CloudServerOutlined />}
                    disabled={facts.mounted}
                    onClick={() => setMounting(true)}
                    data-testid="share-mount"
                  >
                    {facts.mounted ? t('page.mounted') : t('page.mount')}
                  </Button>
                ) : null
              }
            />
          )}
          <MountDialog
            share={share}
            facts={facts}
            open={mounting}
            onClose={() => setMounting(false)}
          />
        </>
      )}
      <FooterText className="nb-footer-text nb-share-page__footer" />
    </section>
  );
}
