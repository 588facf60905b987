import type { JobQueue } from '../../jobs/queue.ts';
import { TRANSCODE_LIMITS } from '@nimbus/contract';
import {
  JOB_MEDIA_INFO,
  JOB_TRANSCODE,
  type MediaInfoPayload,
  type MediaService,
  type TranscodePayload,
} from './media.service.ts';

/** The background work of audio and video: reading a new file's info, and transcodes. */
export function registerMediaJobs(deps: { jobs: JobQueue; media: MediaService }): void {
  const { jobs, media } = deps;
  jobs.register<MediaInfoPayload>(JOB_MEDIA_INFO, (ctx) => media.runInfoJob(ctx), {
    concurrency: 2,
    maxAttempts: 2,
  });
  // as many as the setting may ever allow: the service's gate holds them to the setting
  jobs.register<TranscodePayload>(JOB_TRANSCODE, (ctx) => media.runTranscodeJob(ctx), {
    concurrency: TRANSCODE_LIMITS.maxThreads[1],
    maxAttempts: 2,
    onFailed: (job, message) => media.transcodeFailed(job, message),
  });
}
