import { TOKEN_HEADER, type MarkdownImage } from '@nimbus/contract';
import { Spin } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import Vditor from 'vditor';
import 'vditor/dist/index.css';
import { API_BASE } from '../../../api/client';
import { useColorScheme } from '../../../app/color-scheme';
import { useAppStore } from '../../../stores/app';
import { useSessionStore } from '../../../stores/session';
import type { ViewerProps } from '../../preview/registry';
import { useDocumentEditor } from '../use-document-editor';
import { EditorFrame } from './EditorFrame';

/** Vditor's scripts (lute, languages, highlighting) are served by Nimbus itself. */
const VDITOR_CDN = '/vditor';

/** The address images of a document resolve against: its folder in the owner's file routes. */
const linkBaseOf = (username: string, folder: string) =>
  `${API_BASE}/file/${encodeURIComponent(username)}${folder
    .split('/')
    .map(encodeURIComponent)
    .join('/')}`;

/** Vditor's answer shape of an upload, made of ours. */
function uploadAnswer(text: string): string {
  try {
    const envelope = JSON.parse(text) as { code: number; message?: string; data?: MarkdownImage[] };
    const succMap: Record<string, string> = {};
    for (const image of envelope.data ?? []) succMap[image.filename] = image.url;
    return JSON.stringify({
      code: envelope.code,
      msg: envelope.message ?? '',
      data: { errFiles: [], succMap },
    });
  } catch {
    return JSON.stringify({
      code: 1,
      msg: 'The upload failed',
      data: { errFiles: [], succMap: {} },
    });
  }
}

/** Vditor's answer shape of an image fetched from a URL, made of ours. */
function linkAnswer(text: string): string {
  const envelope = JSON.parse(text) as { code: number; message?: string; data?: MarkdownImage };
  return JSON.stringify({
    code: envelope.code,
    msg: envelope.message ?? '',
    data: { originalURL: envelope.data?.originalURL ?? '', url: envelope.data?.url ?? '' },
  });
}

/**
 * A markdown document in Vditor (instant rendering, live preview): images pasted, dropped or
 * picked go to the document's assets folder; images pasted from other sites are fetched into
 * it by the server. What it renders is sanitised.
 */
export default function MarkdownEditor(props: ViewerProps) {
  const { item } = props;
  const { t } = useTranslation('editors');
  const editor = useDocumentEditor(item);
  const host = useRef<HTMLDivElement>(null);
  /** The text across a rebuild of the widget (a theme or language switch). */
  const kept = useRef<string | null>(null);
  const scheme = useColorScheme();
  const lang = useAppStore((s) => s.lang);
  const username = useSessionStore((s) => s.username);
  const text = editor.document.data?.contentText;
  const loaded = text !== undefined;

  useEffect(() => {
    if (!loaded || !host.current) return;
    const token = useSessionStore.getState().token;
    const headers = { [TOKEN_HEADER]: token };
    const dark = scheme === 'dark';
    let ready = false;
    const vditor = new Vditor(host.current, {
      cdn: VDITOR_CDN,
      value: kept.current ?? text,
      mode: 'ir',
      height: '100%',
      lang: lang === 'zh_CN' ? 'zh_CN' : 'en_US',
      theme: dark ? 'dark' : 'classic',
      cache: { enable: false },
      placeholder: t('markdown.placeholder'),
      counter: { enable: true },
      preview: {
        theme: { current: dark ? 'dark' : 'light', path: `${VDITOR_CDN}/dist/css/content-theme` },
        hljs: { style: dark ? 'native' : 'github' },
        markdown: { linkBase: linkBaseOf(username, item.path), sanitize: true },
      },
      upload: {
        url: `${API_BASE}/upload-markdown-image`,
        fieldName: 'files',
        extraData: { fileId: item.id },
        headers,
        accept: 'image/png,image/jpeg,image/gif,image/webp,image/bmp,image/avif',
        max: 20 * 1024 * 1024,
        multiple: true,
        format: (_files, responseText) => uploadAnswer(responseText),
        linkToImgUrl: `${API_BASE}/upload-markdown-link-image?fileId=${encodeURIComponent(item.id)}`,
        linkToImgFormat: linkAnswer,
      },
      input: (value) => editor.changed(value),
      after: () => {
        ready = true;
        editor.surface.current = {
          getValue: () => vditor.getValue(),
          setValue: (next) => {
            vditor.setValue(next, true);
            editor.changed(vditor.getValue());
          },
          setReadOnly: (readOnly) => (readOnly ? vditor.disabled() : vditor.enable()),
        };
      },
    });
    return () => {
      editor.surface.current = null;
      if (!ready) return;
      kept.current = vditor.getValue();
      vditor.destroy();
    };
    // the widget is made once per document, language and theme; its own state carries the text
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [loaded, scheme, lang, item.id]);

  return (
    <EditorFrame props={props} editor={editor}>
      {loaded ? (
        <div ref={host} className="nb-markdown" data-testid="markdown-editor" />
      ) : (
        <Spin className="nb-editor__loading" />
      )}
    </EditorFrame>
  );
}
