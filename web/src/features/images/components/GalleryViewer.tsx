import {
  CloseOutlined,
  DownloadOutlined,
  InfoCircleOutlined,
  LeftOutlined,
  RightOutlined,
  RotateLeftOutlined,
  RotateRightOutlined,
  ZoomInOutlined,
  ZoomOutOutlined,
  ExpandOutlined,
} from '@ant-design/icons';
import { Button, Tooltip } from 'antd';
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { startDownload } from '../../../api/bytes';
import type { ViewerProps } from '../../../actions/viewers';
import { isGalleryImage, thumbnailUrl, viewableImageUrl } from '../../../actions/thumbnails';
import { ImageInfoPanel } from './ImageInfoPanel';
import '../images.css';

const MIN_SCALE = 0.1;
const MAX_SCALE = 16;
const STEP = 1.25;
/** A horizontal swipe of at least this many pixels turns the page. */
const SWIPE = 50;

interface View {
  scale: number;
  /** Quarter turns, any integer; the picture turns by 90° each. */
  turns: number;
  x: number;
  y: number;
}
const FIT: View = { scale: 1, turns: 0, x: 0, y: 0 };

const clamp = (scale: number) => Math.min(MAX_SCALE, Math.max(MIN_SCALE, scale));

/**
 * The images of the folder, one at a time over the page: zoom (buttons, wheel, double click,
 * pinch), rotate, drag to move, previous and next (buttons, arrow keys, swipe), the photo's size
 * and EXIF. The thumbnail shows at once while the full picture loads; neighbours are fetched
 * ahead. HEIC, TIFF and SVG are shown as the WebP the server makes of them.
 */
export default function GalleryViewer({ item, siblings, source, onSelect, onClose }: ViewerProps) {
  const { t } = useTranslation('images');
  const images = useMemo(() => {
    const found = siblings.filter(isGalleryImage);
    return found.some((image) => image.id === item.id) ? found : [item];
  }, [siblings, item]);
  const index = Math.max(
    0,
    images.findIndex((image) => image.id === item.id),
  );
  const [view, setView] = useState<View>(FIT);
  const [loaded, setLoaded] = useState<string | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [showInfo, setShowInfo] = useState(false);
  const stage = useRef<HTMLDivElement>(null);

  const src = viewableImageUrl(item, source.api);
  const placeholder = thumbnailUrl(item, source.api);
  const downloadUrl = source.downloadUrl(item);

  const go = useCallback(
    (delta: number) => {
      if (images.length < 2) return;
      const next = images[(index + delta + images.length) % images.length];
      if (next) {
        setView(FIT);
        onSelect(next);
      }
    },
    [images, index, onSelect],
  );
  const zoom = useCallback((factor: number) => {
    setView((v) => ({ ...v, scale: clamp(v.scale * factor) }));
  }, []);
  const turn = useCallback((by: number) => {
    setView((v) => ({ ...v, turns: v.turns + by }));
  }, []);

  // the neighbours load while this one is looked at
  useEffect(() => {
    if (images.length < 2) return;
    for (const delta of [1, -1]) {
      const next = images[(index + delta + images.length) % images.length];
      if (next) new Image().src = viewableImageUrl(next, source.api);
    }
  }, [images, index, source]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      const actions: Record<string, () => void> = {
        ArrowLeft: () => go(-1),
        ArrowRight: () => go(1),
        Escape: onClose,
        '+': () => zoom(STEP),
        '=': () => zoom(STEP),
        '-': () => zoom(1 / STEP),
        '0': () => setView(FIT),
        r: () => turn(1),
        R: () => turn(-1),
        i: () => setShowInfo((s) => !s),
      };
      const action = actions[event.key];
      if (!action) return;
      event.preventDefault();
      event.stopPropagation();
      action();
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [go, zoom, turn, onClose]);

  // the wheel zooms; React's wheel listener is passive, so this one is added by hand
  useEffect(() => {
    const element = stage.current;
    if (!element) return;
    const onWheel = (event: WheelEvent) => {
      event.preventDefault();
      zoom(event.deltaY < 0 ? 1.1 : 1 / 1.1);
    };
    element.addEventListener('wheel', onWheel, { passive: false });
    return () => element.removeEventListener('wheel', onWheel);
  }, [zoom]);

  // pointers: one drags (or swipes when not zoomed), two pinch
  const pointers = useRef(new Map<number, { x: number; y: number }>());
  const gesture = useRef<{ x: number; y: number; view: View; distance: number } | null>(null);
  const distance = () => {
    const [a, b] = [...pointers.current.values()];
    return a && b ? Math.hypot(a.x - b.x, a.y - b.y) : 0;
  };
  const onPointerDown = (event: React.PointerEvent) => {
    if (event.button !== 0) return;
    (event.target as Element).setPointerCapture?.(event.pointerId);
    pointers.current.set(event.pointerId, { x: event.clientX, y: event.clientY });
    gesture.current = { x: event.clientX, y: event.clientY, view, distance: distance() };
  };
  const onPointerMove = (event: React.PointerEvent) => {
    if (!pointers.current.has(event.pointerId) || !gesture.current) return;
    pointers.current.set(event.pointerId, { x: event.clientX, y: event.clientY });
    const start = gesture.current;
    if (pointers.current.size === 2 && start.distance > 0) {
      setView({ ...start.view, scale: clamp((start.view.scale * distance()) / start.distance) });
    } else if (start.view.scale > 1) {
      setView({
        ...start.view,
        x: start.view.x + event.clientX - start.x,
        y: start.view.y + event.clientY - start.y,
      });
    }
  };
  const onPointerUp = (event: React.PointerEvent) => {
    const start = gesture.current;
    const wasPinch = pointers.current.size > 1;
    pointers.current.delete(event.pointerId);
    if (pointers.current.size > 0) return;
    gesture.current = null;
    if (!start || wasPinch || start.view.scale > 1) return;
    const dx = event.clientX - start.x;
    const dy = event.clientY - start.y;
    if (Math.abs(dx) >= SWIPE && Math.abs(dx) > Math.abs(dy) * 1.5) go(dx < 0 ? 1 : -1);
  };

  const ready = loaded === src;
  const transform = `translate(${view.x}px, ${view.y}px) scale(${view.scale}) rotate(${view.turns * 90}deg)`;

  return createPortal(
    <div
      className="nb-gallery"
      data-testid="image-viewer"
      role="dialog"
      aria-modal="true"
      aria-label={item.name}
    >
      <div className="nb-gallery-bar">
        <div className="nb-gallery-title">
          <span className="nb-gallery-name" title={item.name}>
            {item.name}
          </span>
          <span className="nb-gallery-count" data-testid="image-count">
            {index + 1} / {images.length}
          </span>
        </div>
        <div className="nb-gallery-tools">
          <Tool label={t('zoomOut')} onClick={() => zoom(1 / STEP)} icon={<ZoomOutOutlined />} />
          <span className="nb-gallery-scale" data-testid="image-scale">
            {Math.round(view.scale * 100)}%
          </span>
          <Tool label={t('zoomIn')} onClick={() => zoom(STEP)} icon={<ZoomInOutlined />} />
          <Tool label={t('fit')} onClick={() => setView(FIT)} icon={<ExpandOutlined />} />
          <Tool label={t('rotateLeft')} onClick={() => turn(-1)} icon={<RotateLeftOutlined />} />
          <Tool label={t('rotateRight')} onClick={() => turn(1)} icon={<RotateRightOutlined />} />
          <Tool
            label={t('info')}
            onClick={() => setShowInfo((s) => !s)}
            icon={<InfoCircleOutlined />}
            active={showInfo}
          />
          {downloadUrl && (
            <Tool
              label={t('download')}
              onClick={() => startDownload(downloadUrl, item.name)}
              icon={<DownloadOutlined />}
            />
          )}
          <Tool
            label={t('close')}
            onClick={onClose}
            icon={<CloseOutlined />}
            testId="image-close"
          />
        </div>
      </div>
      <div
        ref={stage}
        className="nb-gallery-stage"
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={onPointerUp}
        onDoubleClick={() => setView((v) => (v.scale === 1 ? { ...v, scale: 2 } : FIT))}
      >
        {failed === src ? (
          <div className="nb-gallery-failed">{t('loadFailed')}</div>
        ) : (
          <>
            {!ready && placeholder && (
              <img
                key={`thumb-${item.id}`}
                className="nb-gallery-img nb-gallery-placeholder"
                src={placeholder}
                alt=""
                draggable={false}
                style={{ transform }}
              />
            )}
            <img
              key={item.id}
              className="nb-gallery-img"
              data-testid="image-viewer-img"
              data-loaded={ready ? 'true' : 'false'}
              src={src}
              alt={item.name}
              draggable={false}
              style={{ transform, opacity: ready ? 1 : 0 }}
              onLoad={() => setLoaded(src)}
              onError={() => setFailed(src)}
            />
          </>
        )}
        {images.length > 1 && (
          <>
            <button
              type="button"
              className="nb-gallery-nav nb-gallery-prev"
              aria-label={t('previous')}
              data-testid="image-prev"
              onPointerDown={(e) => e.stopPropagation()}
              onClick={() => go(-1)}
            >
              <LeftOutlined />
            </button>
            <button
              type="button"
              className="nb-gallery-nav nb-gallery-next"
              aria-label={t('next')}
              data-testid="image-next"
              onPointerDown={(e) => e.stopPropagation()}
              onClick={() => go(1)}
            >
              <RightOutlined />
            </button>
          </>
        )}
        {showInfo && <ImageInfoPanel item={item} source={source} />}
      </div>
    </div>,
    document.body,
  );
}

function Tool({
  label,
  icon,
  onClick,
  active,
  testId,
}: {
  label: string;
  icon: ReactNode;
  onClick: () => void;
  active?: boolean;
  testId?: string;
}) {
  return (
    <Tooltip title={label} placement="bottom">
      <Button
        type="text"
        className={active ? 'nb-gallery-tool is-active' : 'nb-gallery-tool'}
        aria-label={label}
        aria-pressed={active}
        data-testid={testId}
        icon={icon}
        onClick={onClick}
      />
    </Tooltip>
  );
}
