import { auditApi } from './audit.ts';
import { authApi } from './auth.ts';
import { checkApi } from './check.ts';
import type { Endpoint } from './endpoint.ts';
import { downloadApi, eventsApi, filesApi, syncApi } from './files.ts';
import { historyApi } from './history.ts';
import { imagesApi, imagesVisitorApi, webpApi } from './images.ts';
import { markdownApi } from './markdown.ts';
import { mediaApi, mediaVisitorApi, transcodeApi } from './media.ts';
import { menusApi, rolesApi } from './menus.ts';
import { officeApi, officeConfigApi, officeVisitorApi } from './office.ts';
import { previewApi, previewConfigApi } from './preview.ts';
import { ocrConfigApi, searchApi, searchHistoryApi } from './search.ts';
import { shareApi } from './share.ts';
import { shareVisitorApi } from './share-visitors.ts';
import { healthApi, settingsApi } from './settings.ts';
import { tagsApi } from './tags.ts';
import { tasksApi } from './tasks.ts';
import { uploadApi } from './upload.ts';
import { usersApi } from './users.ts';

/**
 * Every endpoint defined in the contract. The server's test over its route table holds the two
 * equal: a definition without a route fails it, and so does a route without a definition.
 */
export const ENDPOINTS: readonly Endpoint[] = [
  ...Object.values(tasksApi),
  ...Object.values(auditApi),
  ...Object.values(checkApi),
  ...Object.values(searchHistoryApi),
  ...Object.values(tagsApi),
  ...Object.values(menusApi),
  ...Object.values(rolesApi),
  ...Object.values(historyApi),
  ...Object.values(markdownApi),
  ...Object.values(usersApi),
  ...Object.values(shareApi),
  ...Object.values(shareVisitorApi),
  ...Object.values(settingsApi),
  ...Object.values(authApi),
  ...Object.values(syncApi),
  ...Object.values(healthApi),
  ...Object.values(webpApi),
  ...Object.values(transcodeApi),
  ...Object.values(previewConfigApi),
  ...Object.values(ocrConfigApi),
  ...Object.values(officeConfigApi),
  ...Object.values(officeApi),
  ...Object.values(officeVisitorApi),
  ...Object.values(previewApi),
  ...Object.values(searchApi),
  ...Object.values(filesApi),
  ...Object.values(downloadApi),
  ...Object.values(uploadApi),
  ...Object.values(eventsApi),
  ...Object.values(imagesApi),
  ...Object.values(imagesVisitorApi),
  ...Object.values(mediaApi),
  ...Object.values(mediaVisitorApi),
];
