import { shareApi } from '@nimbus/contract';
import { callEndpoint } from './endpoints';

/** The query of the signed-in user's mounts (the Mounts page), which unmounting refreshes. */
export const MOUNTS_KEY = ['share', 'mounts'] as const;

/** Takes a mount out of the folder it was placed in. */
export const removeMount = (mountId: string) =>
  callEndpoint(shareApi.unmount, { query: { mountId } });
