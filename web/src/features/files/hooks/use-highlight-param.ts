import { App } from 'antd';
import { useEffect, useRef, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import type { CollectionApi } from '../../../components/file-browser/collection-types';
import type { FileSelection, Listing } from './use-file-selection';
import type { ViewUrl } from './use-view-url';

/**
 * A task link (`/?path=…&highlight=name`): the listing loads until the item is there, then it
 * is selected, scrolled to and highlighted; a missing item is said so.
 */
export function useHighlightParam(
  view: ViewUrl,
  { query, items }: Listing,
  sel: FileSelection,
  collection: RefObject<CollectionApi | null>,
): void {
  const { t } = useTranslation('files');
  const { message } = App.useApp();
  const { kind, path, highlight } = view;
  const { setSelection, setFocusedId, flash } = sel;
  const handled = useRef<string | null>(null);
  useEffect(() => {
    if (!highlight || !query.data) return;
    const token = `${kind}|${path}|${highlight}`;
    if (handled.current === token) return;
    const index = items.findIndex((item) => item.id === highlight || item.name === highlight);
    if (index >= 0) {
      handled.current = token;
      const item = items[index]!;
      // the row exists only once its page has arrived: selecting it follows the data
      setSelection({ ids: new Set([item.id]), anchor: item.id });
      setFocusedId(item.id);
      flash(item.id, 4000);
      window.setTimeout(() => collection.current?.scrollToIndex(index, 'center'), 0);
      return;
    }
    if (query.hasNextPage && items.length < 20_000) {
      if (!query.isFetchingNextPage) void query.fetchNextPage();
      return;
    }
    handled.current = token;
    void message.info(t('messages.notFound', { name: highlight }));
  }, [
    highlight,
    query,
    items,
    kind,
    path,
    message,
    t,
    setSelection,
    setFocusedId,
    flash,
    collection,
  ]);
}
