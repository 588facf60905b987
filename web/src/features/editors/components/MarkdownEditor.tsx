import { markdownApi, TOKEN_HEADER, type MarkdownImage } from '@nimbus/contract';
import { Modal, Spin } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import Vditor from 'vditor';
import 'vditor/dist/index.css';
import { endpointAddress } from '../../../api/endpoints';
import { useColorScheme } from '../../../lib/color-scheme';
import { useAppStore } from '../../../stores/app';
import { useSessionStore } from '../../../stores/session';
import type { ViewerProps } from '../../../actions/viewers';
import { ImageInput } from '../../../components/ImageInput';
import { importImage, uploadImage } from '../api';
import { linkBaseOf } from '../assets';
import { keepPlantUmlHome, loadGuardedLute, openDocumentView } from '../remote-guard';
import { useDocumentEditor } from '../use-document-editor';
import { EditorFrame } from './EditorFrame';
import { RemoteContentBar } from './RemoteContentBar';

/** Vditor's scripts (lute, languages, highlighting) are served by Nimbus itself. */
const VDITOR_CDN = '/vditor';

/**
 * Vditor's toolbar icons, loaded as a script file of our own origin before the editor is made:
 * Vditor would otherwise inject them as an inline script, which the app's policy refuses.
 */
function loadIcons(): Promise<void> {
  const id = 'vditorIconScript';
  if (document.getElementById(id)) return Promise.resolve();
  return new Promise((resolve) => {
    const script = document.createElement('script');
    script.id = id;
    script.src = `${VDITOR_CDN}/dist/js/icons/ant.js`;
    // without icons the toolbar still works (its buttons have labels)
    script.onload = () => resolve();
    script.onerror = () => resolve();
    document.head.appendChild(script);
  });
}

/** A picture icon for the "image" button of the toolbar (Vditor takes its icons as SVG text). */
const IMAGE_ICON =
  '<svg viewBox="0 0 32 32"><path d="M4 6h24a2 2 0 0 1 2 2v16a2 2 0 0 1-2 2H4a2 2 0 0 1-2-2V8a2 2 0 0 1 2-2zm0 2v13.6l6.3-6.3a1 1 0 0 1 1.4 0l4.3 4.3 3.3-3.3a1 1 0 0 1 1.4 0L28 21.6V8H4zm17 1.5a2.5 2.5 0 1 1 0 5 2.5 2.5 0 0 1 0-5z"/></svg>';

/**
 * The toolbar: Vditor's own, with an image button (a file or a web address), without voice
 * recording (nothing here stores sound from it).
 */
const toolbarWith = (imageButton: IMenuItem): (string | IMenuItem)[] => [
  'emoji',
  'headings',
  'bold',
  'italic',
  'strike',
  'link',
  '|',
  'list',
  'ordered-list',
  'check',
  'outdent',
  'indent',
  '|',
  'quote',
  'line',
  'code',
  'inline-code',
  'insert-before',
  'insert-after',
  '|',
  'upload',
  imageButton,
  'table',
  '|',
  'undo',
  'redo',
  '|',
  'fullscreen',
  'edit-mode',
  // no 'info': Vditor's about box shows a logo from another site
  { name: 'more', toolbar: ['both', 'code-theme', 'content-theme', 'outline', 'preview'] },
];

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
 * it by the server. What it renders is sanitised, and holds back images and other content from
 * other sites until the reader asks for them (one click, for this document view).
 */
export default function MarkdownEditor(props: ViewerProps) {
  const { item } = props;
  const { t } = useTranslation('editors');
  const editor = useDocumentEditor(item);
  // the element as state, not a ref: the dialog mounts its content a moment after the document
  // may have loaded, and the editor is made once the element is there
  const [host, setHost] = useState<HTMLDivElement | null>(null);
  /** The text across a rebuild of the widget (a theme or language switch). */
  const kept = useRef<string | null>(null);
  const scheme = useColorScheme();
  const lang = useAppStore((s) => s.lang);
  const username = useSessionStore((s) => s.username);
  const [imageOpen, setImageOpen] = useState(false);
  /** The document whose view held remote content back, and the one whose reader let it in. */
  const [heldIn, setHeldIn] = useState<string | null>(null);
  const [loadedIn, setLoadedIn] = useState<string | null>(null);
  const documentView = useRef<ReturnType<typeof openDocumentView> | null>(null);
  const widget = useRef<Vditor | null>(null);
  const text = editor.document.data?.contentText;
  const loaded = text !== undefined;

  // one view per document: its remote content is held until its reader lets it in
  useEffect(() => {
    const id = item.id;
    const opened = openDocumentView(() => setHeldIn(id));
    documentView.current = opened;
    return () => {
      opened.close();
      documentView.current = null;
    };
  }, [item.id]);

  /** Let this view's remote content in: what is shown loads it now, later renderings keep it. */
  const loadRemote = () => {
    if (host) documentView.current?.release(host);
    setLoadedIn(item.id);
  };

  useEffect(() => {
    if (!loaded || !host) return;
    const token = useSessionStore.getState().token;
    const headers = { [TOKEN_HEADER]: token };
    const dark = scheme === 'dark';
    let ready = false;
    let gone = false;
    let vditor: Vditor | null = null;
    const element = host;
    /** The made widget, as the editor's surface and the image dialog's target. */
    const connect = (made: Vditor) => {
      // links to videos stay links: Vditor would embed players from other sites (an option
      // given as false at the start is not taken, so it is set here)
      const render = made.vditor.options.preview?.render;
      if (render?.media) render.media.enable = false;
      widget.current = made;
      editor.surface.current = {
        getValue: () => made.getValue(),
        setValue: (next) => {
          made.setValue(next, true);
          editor.changed(made.getValue());
        },
        setReadOnly: (readOnly) => (readOnly ? made.disabled() : made.enable()),
      };
    };
    const make = () => {
      keepPlantUmlHome(t('markdown.plantUmlOff'));
      vditor = new Vditor(element, {
        cdn: VDITOR_CDN,
        value: kept.current ?? text,
        mode: 'ir',
        height: '100%',
        lang: lang === 'zh_CN' ? 'zh_CN' : 'en_US',
        theme: dark ? 'dark' : 'classic',
        cache: { enable: false },
        placeholder: t('markdown.placeholder'),
        toolbar: toolbarWith({
          name: 'nimbus-image',
          tip: t('markdown.image'),
          tipPosition: 'n',
          icon: IMAGE_ICON,
          click: () => setImageOpen(true),
        }),
        preview: {
          theme: { current: dark ? 'dark' : 'light', path: `${VDITOR_CDN}/dist/css/content-theme` },
          hljs: { style: dark ? 'native' : 'github' },
          markdown: { linkBase: linkBaseOf(username, item.path), sanitize: true },
        },
        upload: {
          url: endpointAddress(markdownApi.addImages),
          fieldName: 'files',
          extraData: { fileId: item.id },
          headers,
          accept: 'image/png,image/jpeg,image/gif,image/webp,image/bmp,image/avif',
          max: 20 * 1024 * 1024,
          multiple: true,
          format: (_files, responseText) => uploadAnswer(responseText),
          linkToImgUrl: endpointAddress(markdownApi.importImage, { fileId: item.id }),
          linkToImgFormat: linkAnswer,
        },
        input: (value) => editor.changed(value),
        // called from inside the constructor when Vditor's scripts are loaded already
        after: () => {
          ready = true;
          if (vditor) connect(vditor);
        },
      });
      if (ready) connect(vditor);
    };
    void Promise.all([loadIcons(), loadGuardedLute(VDITOR_CDN)]).then(() => {
      if (!gone) make();
    });
    return () => {
      gone = true;
      widget.current = null;
      editor.surface.current = null;
      if (!ready || !vditor) return;
      kept.current = vditor.getValue();
      vditor.destroy();
    };
    // the widget is made once per document, language and theme; its own state carries the text
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [loaded, scheme, lang, item.id, host]);

  /** An image into the document at the cursor; the dialog closes. */
  const insert = (name: string, url: string) => {
    const alt = name.replace(/[[\]]/g, '');
    setImageOpen(false);
    const made = widget.current;
    if (!made) return;
    // back where the cursor was when the dialog opened (Vditor keeps that place)
    made.focus();
    const markdown = `![${alt}](${url})`;
    made.insertMD(markdown);
    // a cursor left inside an image's own markup takes nothing in: the image goes at the end
    if (!made.getValue().includes(markdown)) {
      made.setValue(`${made.getValue().trimEnd()}\n\n${markdown}\n`);
    }
    editor.changed(made.getValue());
  };

  return (
    <EditorFrame
      props={props}
      editor={editor}
      notice={
        heldIn === item.id && loadedIn !== item.id ? <RemoteContentBar onLoad={loadRemote} /> : null
      }
    >
      {loaded ? (
        <div ref={setHost} className="nb-markdown" data-testid="markdown-editor" />
      ) : (
        <Spin className="nb-editor__loading" />
      )}
      <Modal
        open={imageOpen}
        title={t('markdown.image')}
        footer={null}
        destroyOnHidden
        onCancel={() => setImageOpen(false)}
      >
        <ImageInput
          accept="image/png,image/jpeg,image/gif,image/webp,image/bmp,image/avif"
          upload={async (file, onProgress) => {
            const image = await uploadImage(item.id, file, onProgress);
            insert(image.filename, image.url);
          }}
          fromUrl={async (url) => {
            const image = await importImage(item.id, url);
            insert(image.filename, image.url);
          }}
          linkOnly={(url) => insert('', url)}
        />
      </Modal>
    </EditorFrame>
  );
}
