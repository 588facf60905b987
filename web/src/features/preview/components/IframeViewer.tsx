import { FullScreenViewer } from '../../../components/FullScreenViewer';
import { iframeAddress, iframeRuleFor } from '../../../lib/iframe-rules';
import type { ViewerProps } from '../../../actions/viewers';
import { previewSuffix } from '../use-preview';

/** A viewer page of the Preview Config (pdf.js, epub.js, or the admin's own) full screen. */
export default function IframeViewer({ item, source, iframe, onClose }: ViewerProps) {
  const rule = iframeRuleFor(iframe, previewSuffix(item));
  return (
    <FullScreenViewer
      item={item}
      downloadUrl={source.downloadUrl(item)}
      closeTestId="iframe-viewer-close"
      onClose={onClose}
    >
      {rule ? (
        <iframe
          className="nb-iframe-viewer__frame"
          data-testid="iframe-viewer"
          title={`${rule.name}: ${item.name}`}
          src={iframeAddress(rule, source.bytesUrl(item))}
          allowFullScreen
        />
      ) : null}
    </FullScreenViewer>
  );
}
