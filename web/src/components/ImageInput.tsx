import { CheckCircleFilled, InboxOutlined, LinkOutlined } from '@ant-design/icons';
import { Button, Input, Progress, Typography, Upload } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import './image-input.css';

/** Spec §4: 0 idle, 1 uploading, 2 success (back to idle after 3 s), 3 cannot be uploaded
 * automatically, 4 the image at the address is loading. */
export type ImageInputState = 0 | 1 | 2 | 3 | 4;

/** How long after the last keystroke an address is checked. */
const CHECK_AFTER_MS = 300;
/** How long "uploaded" shows before the input is ready again. */
const SUCCESS_SHOWS_MS = 3000;

const looksLikeAddress = (text: string) => /^https?:\/\/[^\s/]+\.[^\s]+$/i.test(text.trim());

/** Whether the browser can draw what is at `url` as an image. */
function loadsAsImage(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const image = new Image();
    image.onload = () => resolve(image.naturalWidth > 0);
    image.onerror = () => resolve(false);
    image.referrerPolicy = 'no-referrer';
    image.src = url;
  });
}

/**
 * One image at a time, picked or dropped (images by default), or taken from a web address,
 * checked 300 ms after typing stops. `upload` sends a file (reporting percent), `fromUrl` has the
 * server fetch an address; when it cannot, `linkOnly` may use the address as it is.
 */
export function ImageInput({
  accept = 'image/*',
  upload,
  fromUrl,
  linkOnly,
}: {
  accept?: string;
  upload: (file: File, onProgress: (percent: number) => void) => Promise<void>;
  /** Without it, only files are taken. */
  fromUrl?: (url: string) => Promise<void>;
  linkOnly?: (url: string) => void;
}) {
  const { t } = useTranslation('common');
  const [state, setState] = useState<ImageInputState>(0);
  const [percent, setPercent] = useState(0);
  const [address, setAddress] = useState('');
  const [problem, setProblem] = useState('');
  const timers = useRef<number[]>([]);

  useEffect(() => () => timers.current.forEach((timer) => window.clearTimeout(timer)), []);

  const later = (fn: () => void, ms: number) => {
    timers.current.push(window.setTimeout(fn, ms));
  };
  const succeeded = () => {
    setState(2);
    later(() => {
      setState(0);
      setAddress('');
    }, SUCCESS_SHOWS_MS);
  };
  const failed = (message: string) => {
    setProblem(message);
    setState(3);
  };

  const sendFile = async (file: File) => {
    setState(1);
    setPercent(0);
    try {
      await upload(file, setPercent);
      succeeded();
    } catch (error) {
      failed(error instanceof Error ? error.message : String(error));
    }
  };

  // an address is checked once typing pauses: does it draw as an image, will the server take it
  useEffect(() => {
    const url = address.trim();
    if (!fromUrl || !looksLikeAddress(url)) return;
    let current = true;
    const timer = window.setTimeout(() => {
      setState(4);
      void (async () => {
        if (!(await loadsAsImage(url))) {
          if (current) failed(t('imageInput.notAnImage'));
          return;
        }
        if (!current) return;
        setState(1);
        setPercent(0);
        try {
          await fromUrl(url);
          if (current) succeeded();
        } catch (error) {
          if (current) failed(error instanceof Error ? error.message : String(error));
        }
      })();
    }, CHECK_AFTER_MS);
    return () => {
      current = false;
      window.clearTimeout(timer);
    };
    // a new address starts over; the callbacks are the caller's and stable enough
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [address]);

  const busy = state === 1 || state === 4;

  return (
    <div className="nb-image-input" data-testid="image-input" data-state={state}>
      <Upload.Dragger
        accept={accept}
        multiple={false}
        maxCount={1}
        showUploadList={false}
        disabled={busy}
        beforeUpload={(file) => {
          void sendFile(file);
          return false;
        }}
      >
        {state === 1 ? (
          <Progress type="circle" size={64} percent={percent} />
        ) : state === 2 ? (
          <p className="nb-image-input__done">
            <CheckCircleFilled /> {t('imageInput.uploaded')}
          </p>
        ) : (
          <>
            <p className="ant-upload-drag-icon">
              <InboxOutlined />
            </p>
            <p>{t('imageInput.pick')}</p>
          </>
        )}
      </Upload.Dragger>
      {fromUrl ? (
        <Input
          prefix={<LinkOutlined />}
          allowClear
          placeholder={t('imageInput.address')}
          value={address}
          disabled={busy}
          data-testid="image-input-address"
          onChange={(event) => {
            setAddress(event.target.value);
            if (state === 3) setState(0);
          }}
        />
      ) : null}
      {state === 4 ? (
        <Typography.Text type="secondary">{t('imageInput.loading')}</Typography.Text>
      ) : null}
      {state === 3 ? (
        <div className="nb-image-input__problem" data-testid="image-input-problem">
          <Typography.Text type="warning">
            {t('imageInput.cannot')} {problem}
          </Typography.Text>
          {linkOnly && looksLikeAddress(address) ? (
            <Button size="small" onClick={() => linkOnly(address.trim())}>
              {t('imageInput.linkOnly')}
            </Button>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
