import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { setCurrentFolder, setCurrentFolderRefresh } from '../../../stores/current-folder';
import { refreshListing } from '../listing-cache';
import { ROOT_FOLDER_ID, type ListingKey } from '../types';

/** Tells the uploader which folder is on screen (it puts files there and refreshes it). */
export function useCurrentFolderSync(
  isHome: boolean,
  path: string,
  folderId: string | undefined,
  writable: boolean,
  listingKey: ListingKey,
): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    setCurrentFolder({
      path: isHome ? path : '/',
      folderId: isHome ? (path === '/' ? ROOT_FOLDER_ID : (folderId ?? '')) : '',
      writable,
    });
  }, [isHome, path, folderId, writable]);
  useEffect(() => {
    setCurrentFolderRefresh(() => refreshListing(queryClient, listingKey, true));
  }, [queryClient, listingKey]);
  useEffect(
    () => () => {
      setCurrentFolder({ path: '/', folderId: ROOT_FOLDER_ID, writable: false });
      setCurrentFolderRefresh(null);
    },
    [],
  );
}
