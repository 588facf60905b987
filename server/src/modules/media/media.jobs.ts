import type { JobQueue } from '../../jobs/queue.ts';
import { TRANSCODE_LIMITS } from '@nimbus/contract';
import { JOB_MEDIA_INFO, type MediaInfoPayload, type MediaService } from './media.service.ts';
import { JOB_TRANSCODE, type TranscodePayload, type TranscodeQueue } from './transcode-queue.ts';

/** The background work of audio and video: reading a new file's info, and transcodes. */
export function registerMediaJobs(deps: {
  jobs: JobQueue;
  media: MediaService;
  transcodes: TranscodeQueue;
}): void {
  const { jobs, media, transcodes } = deps;
  jobs.register<MediaInfoPayload>(JOB_MEDIA_INFO, (ctx) => media.runInfoJob(ctx), {
    concurrency: 2,
    maxAttempts: 2,
  });
  // as many as the setting may ever allow: the queue's gate holds them to the setting
  jobs.register<TranscodePayload>(JOB_TRANSCODE, (ctx) => transcodes.runJob(ctx), {
    concurrency: TRANSCODE_LIMITS.maxThreads[1],
    maxAttempts: 2,
    onFailed: (job, message) => transcodes.failed(job, message),
  });
}
