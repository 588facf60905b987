import { useQuery } from '@tanstack/react-query';
import { tasksApi, type TaskItem } from '@nimbus/contract';
import { callEndpoint } from '../../api/endpoints';

/**
 * A running task (spec §3: taskId, type, name, path, progress) as the contract answers it; a
 * live message may leave out the other fields and carry its progress as text ("42%").
 */
export type Task = Pick<TaskItem, 'taskId' | 'type' | 'name' | 'path'> &
  Partial<Pick<TaskItem, 'taskType' | 'username' | 'state' | 'message'>> & {
    progress: TaskItem['progress'] | string;
  };

export { taskLink } from '../../lib/task-link';

export const taskKeys = { progress: ['task', 'progress'] as const };

export function useTasks() {
  return useQuery({
    queryKey: taskKeys.progress,
    queryFn: async ({ signal }) => {
      const tasks: Task[] | undefined = await callEndpoint(tasksApi.progress, {}, { signal });
      return Array.isArray(tasks) ? tasks : [];
    },
  });
}

/**
 * spec §4: a progress message for a known task updates it; an empty progress removes it;
 * a new task with progress is added.
 */
export function applyTaskMessage(tasks: readonly Task[], message: Partial<Task>): Task[] {
  if (!message.taskId) return [...tasks];
  const index = tasks.findIndex((task) => task.taskId === message.taskId);
  const empty =
    message.progress === undefined || message.progress === null || message.progress === '';
  if (index === -1) return empty ? [...tasks] : [...tasks, message as Task];
  if (empty) return tasks.filter((task) => task.taskId !== message.taskId);
  return tasks.map((task, i) => (i === index ? { ...task, ...message } : task));
}

/** Numeric progress 0..100 when the text is a percentage, else null. */
export function progressPercent(progress: Task['progress']): number | null {
  if (typeof progress === 'number') return Math.max(0, Math.min(100, progress));
  if (typeof progress !== 'string') return null;
  const match = /^\s*(\d+(?:\.\d+)?)\s*%?\s*$/.exec(progress);
  return match?.[1] ? Math.max(0, Math.min(100, Number(match[1]))) : null;
}

/**
 * The running-task count of a `taskCountChange` message: its body is the task list, sent as
 * `{ data: [...] }` (or the bare list, or a number).
 */
export function taskCountOf(body: unknown): number {
  if (Array.isArray(body)) return body.length;
  if (typeof body === 'number' && Number.isFinite(body)) return Math.max(0, body);
  if (body && typeof body === 'object' && 'data' in body) return taskCountOf(body.data);
  return 0;
}
