import { useTranslation } from 'react-i18next';
import { FullScreenViewer } from '../../../components/FullScreenViewer';
import type { ViewerProps } from '../../../actions/viewers';
import { editsInOnlyOffice, useOfficeConfig } from '../api';
import { documentPageAddress, onlyOfficePageAddress } from '../viewer-pages';
import { isOfficeDocument } from '../document-kinds';

/** A document full screen in its bundled viewer page: office files as PDF, PDF, EPUB. */
export default function DocumentViewer({ item, source, onClose }: ViewerProps) {
  const { t } = useTranslation('documents');
  const office = isOfficeDocument(item);
  const config = useOfficeConfig(office && source.kind === 'owner');
  const waiting = office && source.kind === 'owner' && config.isPending;
  const editor = editsInOnlyOffice(item, source, config.data);
  const title = office && !editor ? t('office.title', { name: item.name }) : item.name;

  return (
    <FullScreenViewer
      item={item}
      title={title}
      downloadUrl={source.downloadUrl(item)}
      className="nb-document-viewer"
      closeTestId="document-viewer-close"
      onClose={onClose}
    >
      {waiting ? null : (
        <iframe
          className="nb-iframe-viewer__frame"
          data-testid={editor ? 'onlyoffice-viewer' : 'document-viewer'}
          title={title}
          src={editor ? onlyOfficePageAddress(item) : documentPageAddress(item, source)}
          allowFullScreen
        />
      )}
    </FullScreenViewer>
  );
}
