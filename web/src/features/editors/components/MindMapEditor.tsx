import {
  AimOutlined,
  DragOutlined,
  NodeExpandOutlined,
  PlusSquareOutlined,
  SelectOutlined,
  SisternodeOutlined,
  DeleteOutlined,
  PictureOutlined,
  FileTextOutlined,
  LinkOutlined,
} from '@ant-design/icons';
import { App, Button, Dropdown, Form, Input, Modal, Select, Slider, Spin, Tooltip } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import MindMap from 'simple-mind-map';
import Drag from 'simple-mind-map/src/plugins/Drag.js';
import KeyboardNavigation from 'simple-mind-map/src/plugins/KeyboardNavigation.js';
import SelectPlugin from 'simple-mind-map/src/plugins/Select.js';
import { ImageInput } from '../../../components/ImageInput';
import { useSessionStore } from '../../../stores/session';
import type { ViewerProps } from '../../../actions/viewers';
import { importImage, uploadImage } from '../api';
import { imageSizeOf, linkBaseOf } from '../assets';
import {
  drawnTree,
  isSafeLink,
  KM_TEMPLATES,
  KM_THEMES,
  kmOf,
  kmText,
  LAYOUT_OF,
  parseKm,
  templateOf,
  themeOf,
  type DrawnNode,
  type KmDocument,
  type KmTemplate,
  type KmTheme,
} from '../km';
import { holdRemoteImages, releaseRemoteImages } from '../km-remote';
import { onResize, whenLaidOut } from '../laid-out';
import { recordEachGesture } from '../mind-history';
import { themeConfigOf } from '../mind-themes';
import { useDocumentEditor } from '../use-document-editor';
import { EditorFrame } from './EditorFrame';
import { RemoteContentBar } from './RemoteContentBar';

// dragging a topic onto another re-parents it, a box selects several, the arrows walk the map
// eslint-disable-next-line react-hooks/rules-of-hooks -- the widget's plugin registry, not a hook
MindMap.usePlugin(Drag).usePlugin(SelectPlugin).usePlugin(KeyboardNavigation);

/** Zoom in percent: the slider's range and default (spec §9). */
const ZOOM = { min: 10, max: 300, initial: 100 };
/** "Expand to level": 1–5, or everything. */
const ALL_LEVELS = 99;

interface Shown {
  doc: KmDocument;
  text: string;
}

/** A topic as the widget hands it out. */
interface TopicNode {
  getData: (key: string) => unknown;
}

/** A note or link being written for a topic. */
interface TopicField {
  kind: 'note' | 'link';
  node: TopicNode;
  value: string;
}

/** What the widget's text editing offers beyond its declared types. */
interface TextEditing {
  show: (options: { node: unknown; isFromKeyDown?: boolean }) => Promise<void> | undefined;
  isShowTextEdit: () => boolean;
  hideEditTextBox: () => void;
  checkIsAutoEnterTextEditKey: (event: KeyboardEvent) => boolean;
}

const textEditOf = (mindMap: MindMap) => mindMap.renderer.textEdit as unknown as TextEditing;

/**
 * Whether a key is the map's: typed in a topic's edit box, on the canvas itself, or on the
 * page's body (where the focus falls when a button that had it goes away, e.g. Save).
 */
export function mapKeyTarget(mindMap: MindMap, canvas: HTMLElement, event: KeyboardEvent): boolean {
  const target = event.target;
  if (!(target instanceof HTMLElement)) return false;
  if ((mindMap.editNodeClassList as string[]).some((c) => target.classList.contains(c)))
    return true;
  return target === canvas || target === canvas.ownerDocument.body;
}

/**
 * The canvas holds the focus while the map is worked on (the widget itself listens on the
 * window and expects the page's body to have it, which a dialog never leaves it): a click on
 * the canvas focuses it, so does the end of a topic's edit (Enter, Tab, Escape or a click
 * elsewhere), and a letter or digit typed on one selected topic opens its edit box with that
 * letter in it.
 */
function keepFocusOnCanvas(mindMap: MindMap, canvas: HTMLElement): () => void {
  const focusCanvas = () => canvas.focus({ preventScroll: true });
  const onDown = (event: MouseEvent) => {
    const editing = (mindMap.editNodeClassList as string[]).some((c) =>
      (event.target as Element | null)?.closest?.(`.${c}`),
    );
    if (!editing) focusCanvas();
  };
  const onKey = (event: KeyboardEvent) => {
    const text = textEditOf(mindMap);
    // Escape ends a topic's edit, keeping what was typed (the dialog stays open)
    if (event.key === 'Escape' && text.isShowTextEdit()) {
      text.hideEditTextBox();
      return;
    }
    if (event.target !== canvas || (mindMap.opt as { readonly?: boolean }).readonly) return;
    const active = mindMap.renderer.activeNodeList as unknown[];
    if (active.length !== 1 || text.isShowTextEdit() || !text.checkIsAutoEnterTextEditKey(event))
      return;
    // the edit box takes the focus at once, so the key's letter lands in it
    void text.show({ node: active[0], isFromKeyDown: true });
  };
  const onEditEnd = () => {
    if (canvas.isConnected) focusCanvas();
  };
  canvas.addEventListener('mousedown', onDown, true);
  canvas.addEventListener('keydown', onKey);
  mindMap.on('hide_text_edit', onEditEnd);
  return () => {
    canvas.removeEventListener('mousedown', onDown, true);
    canvas.removeEventListener('keydown', onKey);
    mindMap.off('hide_text_edit', onEditEnd);
  };
}

/**
 * A mind map in the KityMinder `.km` shape: topics edited on the canvas (Tab a child, Enter a
 * sibling, Delete, F2 to rename), with a quick bar for zoom, the six layouts, the nine
 * themes, expanding to a level, centring, and dragging the canvas by hand.
 */
export default function MindMapEditor(props: ViewerProps) {
  const { item } = props;
  const { t } = useTranslation('editors');
  const editor = useDocumentEditor(item);
  // the canvas as state, not a ref: the dialog mounts its content a moment after the document
  // may have loaded, and the map is drawn once the canvas is there
  const [host, setHost] = useState<HTMLDivElement | null>(null);
  const map = useRef<MindMap | null>(null);
  /** The document as it is in the widget's terms: the parsed file, template and theme. */
  const current = useRef<Shown | null>(null);
  const [template, setTemplate] = useState<KmTemplate>('default');
  const [theme, setTheme] = useState<KmTheme>('fresh-blue');
  const [zoom, setZoom] = useState(ZOOM.initial);
  const [hand, setHand] = useState(true);
  /** Topic images from other sites are held back until the reader lets them in (this view). */
  const remoteAllowed = useRef(false);
  const [heldIn, setHeldIn] = useState<string | null>(null);
  /** The topic an image is being chosen for. */
  const [imageFor, setImageFor] = useState<unknown>(null);
  /** The topic whose note or link is being written, and what the field holds. */
  const [fieldFor, setFieldFor] = useState<TopicField | null>(null);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const { message } = App.useApp();
  const username = useSessionStore((s) => s.username);
  const text = editor.document.data?.contentText;
  const loaded = text !== undefined;
  const title = item.name.replace(/\.[^.]*$/, '');
  // the template and theme are read by the widget's callbacks: kept in refs too
  const templateRef = useRef<KmTemplate>('default');
  const themeRef = useRef<KmTheme>('fresh-blue');
  const reportRef = useRef<() => void>(() => undefined);
  templateRef.current = template;
  themeRef.current = theme;

  useEffect(() => {
    if (!loaded || !host) return;
    const canvas = host;
    const id = item.id;
    /** The widget on the canvas, with the document in it; returns what takes it down. */
    const start = (): (() => void) => {
      remoteAllowed.current = false;
      /** What the widget draws of a document: images from other sites held back, unless let in. */
      const shownTree = (doc: KmDocument): DrawnNode => {
        if (remoteAllowed.current) return drawnTree(doc);
        const { tree, held } = holdRemoteImages(drawnTree(doc), window.location.href);
        if (held > 0) setHeldIn(id);
        return tree;
      };
      const opened = parseKm(text, title);
      current.current = { doc: opened, text };
      const chosen = { template: templateOf(opened.template), theme: themeOf(opened.theme) };
      setTemplate(chosen.template);
      setTheme(chosen.theme);
      const mindMap = new MindMap({
        el: canvas,
        data: shownTree(opened),
        layout: LAYOUT_OF[chosen.template],
        themeConfig: themeConfigOf(chosen.theme),
        // a map larger than the window is shrunk to fit it at first (a small one keeps 100 %)
        fit: true,
        minZoomRatio: ZOOM.min,
        maxZoomRatio: ZOOM.max,
        mousewheelAction: 'zoom',
        useLeftKeySelectionRightKeyDrag: false,
        createNewNodeBehavior: 'default',
        defaultInsertSecondLevelNodeText: t('mind.newTopic'),
        defaultInsertBelowSecondLevelNodeText: t('mind.newTopic'),
        // the edit box lives in the canvas, inside the dialog: a box on the page's body is outside
        // the dialog, which takes the focus back from it and nothing typed would land
        customInnerElsAppendTo: canvas,
        // the keys are the map's while the focus is on the canvas or in a topic's edit box (the
        // canvas takes the focus when clicked), wherever the pointer is
        enableShortcutOnlyWhenMouseInSvg: false,
        customCheckEnableShortcut: (event: KeyboardEvent) => mapKeyTarget(mindMap, canvas, event),
        // typing on a selected topic writes it anew, as a letter typed on a selected cell does
        autoEmptyTextWhenKeydownEnterEdit: true,
        // a topic's link opens in a new tab, and only a web or mail address (never script)
        customHyperlinkJump: (link: string) => {
          if (isSafeLink(link)) window.open(link, '_blank', 'noopener,noreferrer');
        },
      } as ConstructorParameters<typeof MindMap>[0]);
      map.current = mindMap;
      const textOf = (kmTemplate: KmTemplate, kmTheme: KmTheme) => {
        const shown = current.current!;
        const drawn = releaseRemoteImages(mindMap.getData(false) as DrawnNode);
        return kmText(kmOf(shown.doc, drawn, kmTemplate, kmTheme), shown.text, shown.doc);
      };
      const report = () => editor.changed(textOf(templateRef.current, themeRef.current));
      mindMap.on('data_change', report);
      mindMap.on('scale', (scale: number) => setZoom(Math.round(scale * 100)));
      const detachFocus = keepFocusOnCanvas(mindMap, canvas);
      const stopHistory = recordEachGesture(mindMap);
      // a window made narrower or wider (a phone turned) takes the map with it
      const stopResize = onResize(canvas, () => mindMap.resize());
      reportRef.current = report;
      editor.surface.current = {
        getValue: () => textOf(templateRef.current, themeRef.current),
        setValue: (next) => {
          const doc = parseKm(next, title);
          current.current = { doc, text: next };
          const kmTemplate = templateOf(doc.template);
          const kmTheme = themeOf(doc.theme);
          templateRef.current = kmTemplate;
          themeRef.current = kmTheme;
          setTemplate(kmTemplate);
          setTheme(kmTheme);
          mindMap.setLayout(LAYOUT_OF[kmTemplate], true);
          mindMap.setThemeConfig(themeConfigOf(kmTheme), true);
          mindMap.setData(shownTree(doc));
          editor.changed(next);
        },
        setReadOnly: (readOnly) => mindMap.setMode(readOnly ? 'readonly' : 'edit'),
        settle: () => textEditOf(mindMap).hideEditTextBox(),
      };
      return () => {
        stopResize();
        detachFocus();
        editor.surface.current = null;
        map.current = null;
        mindMap.destroy();
        stopHistory();
      };
    };
    let stop: (() => void) | null = null;
    // drawn once the dialog has opened: the widget takes the canvas's size as it starts
    const waiting = whenLaidOut(canvas, () => {
      stop = start();
    });
    return () => {
      waiting();
      stop?.();
    };
    // one widget per opened document
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [loaded, item.id, host]);

  const readOnly = editor.shown !== null;

  /** Let this view's topic images from other sites in: drawn again with their addresses. */
  const loadRemote = () => {
    remoteAllowed.current = true;
    setHeldIn(null);
    const mindMap = map.current;
    if (mindMap) mindMap.setData(releaseRemoteImages(mindMap.getData(false) as DrawnNode));
  };

  const chooseTemplate = (value: KmTemplate) => {
    templateRef.current = value;
    setTemplate(value);
    map.current?.setLayout(LAYOUT_OF[value]);
    reportRef.current();
  };
  const chooseTheme = (value: KmTheme) => {
    themeRef.current = value;
    setTheme(value);
    map.current?.setThemeConfig(themeConfigOf(value));
    reportRef.current();
  };
  const chooseZoom = (percent: number) => {
    setZoom(percent);
    const mindMap = map.current;
    // zoomed about the middle of the canvas
    mindMap?.view.setScale(percent / 100, mindMap.width / 2, mindMap.height / 2);
  };
  const toggleHand = () => {
    setHand(!hand);
    // by hand: the left button drags the canvas; otherwise it draws a selection box
    map.current?.updateConfig({ useLeftKeySelectionRightKeyDrag: hand });
  };
  const run = (command: string, ...args: unknown[]) => map.current?.execCommand(command, ...args);

  /** The one selected topic, or a word that one must be selected first. */
  const selectedTopic = (): TopicNode | null => {
    const node = (map.current?.renderer.activeNodeList as TopicNode[] | undefined)?.[0];
    if (!node) void message.info(t('mind.selectFirst'));
    return node ?? null;
  };
  const pickImage = () => {
    const node = selectedTopic();
    if (node) setImageFor(node);
  };
  const writeField = (kind: TopicField['kind']) => {
    const node = selectedTopic();
    if (!node) return;
    const value = node.getData(kind === 'note' ? 'note' : 'hyperlink');
    setFieldError(null);
    setFieldFor({ kind, node, value: typeof value === 'string' ? value : '' });
  };
  const saveField = () => {
    if (!fieldFor) return;
    const value = fieldFor.value.trim();
    if (fieldFor.kind === 'link' && value !== '' && !isSafeLink(value)) {
      setFieldError(t('mind.linkBad'));
      return;
    }
    if (fieldFor.kind === 'note') run('SET_NODE_NOTE', fieldFor.node, value);
    else run('SET_NODE_HYPERLINK', fieldFor.node, value, '');
    setFieldFor(null);
  };
  /** The chosen image on the topic, at most 180 px; `url` absolute or relative to the map. */
  const placeImage = async (url: string, title: string) => {
    const node = imageFor;
    setImageFor(null);
    const absolute = /^https?:\/\//i.test(url) ? url : `${linkBaseOf(username, item.path)}${url}`;
    const size = await imageSizeOf(absolute);
    run('SET_NODE_IMAGE', node, { url: absolute, title, ...size });
  };

  const tools = (
    <>
      <Tooltip title={t('mind.addChild')}>
        <Button
          size="small"
          icon={<PlusSquareOutlined />}
          disabled={readOnly}
          aria-label={t('mind.addChild')}
          onClick={() => run('INSERT_CHILD_NODE')}
        />
      </Tooltip>
      <Tooltip title={t('mind.addSibling')}>
        <Button
          size="small"
          icon={<SisternodeOutlined />}
          disabled={readOnly}
          aria-label={t('mind.addSibling')}
          onClick={() => run('INSERT_NODE')}
        />
      </Tooltip>
      <Tooltip title={t('mind.image')}>
        <Button
          size="small"
          icon={<PictureOutlined />}
          disabled={readOnly}
          aria-label={t('mind.image')}
          data-testid="mind-image"
          onClick={pickImage}
        />
      </Tooltip>
      <Tooltip title={t('mind.note')}>
        <Button
          size="small"
          icon={<FileTextOutlined />}
          disabled={readOnly}
          aria-label={t('mind.note')}
          data-testid="mind-note"
          onClick={() => writeField('note')}
        />
      </Tooltip>
      <Tooltip title={t('mind.link')}>
        <Button
          size="small"
          icon={<LinkOutlined />}
          disabled={readOnly}
          aria-label={t('mind.link')}
          data-testid="mind-link"
          onClick={() => writeField('link')}
        />
      </Tooltip>
      <Tooltip title={t('mind.remove')}>
        <Button
          size="small"
          icon={<DeleteOutlined />}
          disabled={readOnly}
          aria-label={t('mind.remove')}
          onClick={() => run('REMOVE_NODE')}
        />
      </Tooltip>
      <Select
        size="small"
        aria-label={t('mind.layout')}
        data-testid="mind-layout"
        value={template}
        disabled={readOnly}
        style={{ width: 170 }}
        onChange={chooseTemplate}
        options={KM_TEMPLATES.map((value) => ({ value, label: t(`mind.layouts.${value}`) }))}
      />
      <Select
        size="small"
        aria-label={t('mind.theme')}
        data-testid="mind-theme"
        value={theme}
        disabled={readOnly}
        style={{ width: 150 }}
        onChange={chooseTheme}
        options={KM_THEMES.map((value) => ({ value, label: t(`mind.themes.${value}`) }))}
      />
      <Dropdown
        menu={{
          items: [1, 2, 3, 4, 5, ALL_LEVELS].map((level) => ({
            key: String(level),
            label: level === ALL_LEVELS ? t('mind.expandAll') : t('mind.level', { level }),
          })),
          onClick: ({ key }) =>
            Number(key) === ALL_LEVELS ? run('EXPAND_ALL') : run('UNEXPAND_TO_LEVEL', Number(key)),
        }}
      >
        <Button size="small" icon={<NodeExpandOutlined />}>
          {t('mind.expand')}
        </Button>
      </Dropdown>
      <Tooltip title={t('mind.centre')}>
        <Button
          size="small"
          icon={<AimOutlined />}
          aria-label={t('mind.centre')}
          data-testid="mind-centre"
          onClick={() => map.current?.renderer.setRootNodeCenter()}
        />
      </Tooltip>
      <Tooltip title={hand ? t('mind.select') : t('mind.hand')}>
        <Button
          size="small"
          type={hand ? 'primary' : 'default'}
          icon={hand ? <DragOutlined /> : <SelectOutlined />}
          aria-label={hand ? t('mind.select') : t('mind.hand')}
          aria-pressed={hand}
          onClick={toggleHand}
        />
      </Tooltip>
      <span className="nb-mind-zoom">
        <span>{t('mind.zoom')}</span>
        <Slider
          min={ZOOM.min}
          max={ZOOM.max}
          value={zoom}
          onChange={chooseZoom}
          style={{ width: 120 }}
          tooltip={{ formatter: (value) => `${value}%` }}
        />
        <span data-testid="mind-zoom">{zoom}%</span>
      </span>
    </>
  );

  return (
    <EditorFrame
      props={props}
      editor={editor}
      tools={tools}
      notice={heldIn === item.id ? <RemoteContentBar onLoad={loadRemote} /> : null}
    >
      {loaded ? (
        <div
          ref={setHost}
          className="nb-mind-map"
          data-testid="mind-map"
          tabIndex={-1}
          role="application"
          aria-label={t('mind.canvas')}
        />
      ) : (
        <Spin className="nb-editor__loading" />
      )}
      <Modal
        open={imageFor !== null}
        title={t('mind.image')}
        footer={null}
        destroyOnHidden
        onCancel={() => setImageFor(null)}
      >
        <ImageInput
          accept="image/png,image/jpeg,image/gif,image/webp,image/bmp,image/avif"
          upload={async (file, onProgress) => {
            const image = await uploadImage(item.id, file, onProgress);
            await placeImage(image.url, image.filename);
          }}
          fromUrl={async (url) => {
            const image = await importImage(item.id, url);
            await placeImage(image.url, image.filename);
          }}
          linkOnly={(url) => void placeImage(url, '')}
        />
      </Modal>
      <Modal
        open={fieldFor !== null}
        title={fieldFor?.kind === 'link' ? t('mind.link') : t('mind.note')}
        destroyOnHidden
        onCancel={() => setFieldFor(null)}
        onOk={saveField}
        okButtonProps={{ 'data-testid': 'mind-field-ok' }}
      >
        <Form layout="vertical" onFinish={saveField}>
          <Form.Item
            extra={t('mind.emptyRemoves')}
            validateStatus={fieldError ? 'error' : undefined}
            help={fieldError ?? undefined}
          >
            {fieldFor?.kind === 'link' ? (
              <Input
                autoFocus
                data-testid="mind-field"
                aria-label={t('mind.link')}
                placeholder={t('mind.linkPlaceholder')}
                value={fieldFor.value}
                onChange={(event) => setFieldFor({ ...fieldFor, value: event.target.value })}
              />
            ) : (
              <Input.TextArea
                autoFocus
                data-testid="mind-field"
                aria-label={t('mind.note')}
                placeholder={t('mind.notePlaceholder')}
                autoSize={{ minRows: 3, maxRows: 10 }}
                value={fieldFor?.value ?? ''}
                onChange={(event) =>
                  fieldFor && setFieldFor({ ...fieldFor, value: event.target.value })
                }
              />
            )}
          </Form.Item>
        </Form>
      </Modal>
    </EditorFrame>
  );
}
