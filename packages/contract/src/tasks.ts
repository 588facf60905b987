import { z } from 'zod';
import { endpoint } from './endpoint.ts';

export const TASK_STATES = ['queued', 'running', 'done', 'failed', 'cancelled'] as const;

/** One queued or running background task of the caller (API-NOTES §1.12). */
export const taskItem = z.object({
  taskId: z.string(),
  /** The job type (`copy`, `unzip`, `transcode`…); `type` repeats it for the original client. */
  taskType: z.string(),
  type: z.string(),
  name: z.string(),
  path: z.string(),
  /** 0..100 while queued or running; null in the last `taskProgress` of a task (removes it). */
  progress: z.number().nullable(),
  username: z.string(),
  state: z.enum(TASK_STATES),
  message: z.string().nullable(),
});
export type TaskItem = z.infer<typeof taskItem>;
export const taskList = z.array(taskItem);

/** The tasks' endpoints. */
export const tasksApi = {
  /** The caller's queued and running tasks (administrators too see only their own). */
  progress: endpoint({
    method: 'GET',
    path: '/cloud/task/progress',
    answer: taskList,
    access: 'user',
  }),
};
