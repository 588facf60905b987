import { describe, expect, it } from 'vitest';
import { applyTaskMessage, progressPercent, taskCountOf, type Task } from './api';

const task = (taskId: string, progress: Task['progress']): Task => ({
  taskId,
  type: 'transcode',
  name: 'a.mp4',
  path: '/v/',
  progress,
});

describe('task list messages (spec §4)', () => {
  it('updates a known task, removes it on empty progress and adds a new one', () => {
    const list = [task('1', '10%')];
    expect(applyTaskMessage(list, { taskId: '1', progress: '50%' })[0]?.progress).toBe('50%');
    expect(applyTaskMessage(list, { taskId: '1', progress: '' })).toEqual([]);
    expect(applyTaskMessage(list, task('2', '5%'))).toHaveLength(2);
    expect(applyTaskMessage(list, { taskId: '3', progress: '' })).toHaveLength(1);
  });

  it('reads percentages', () => {
    expect(progressPercent('42%')).toBe(42);
    expect(progressPercent(120)).toBe(100);
    expect(progressPercent('merging')).toBeNull();
  });
});

describe('task count messages (spec §3: the list length is the count)', () => {
  it('reads the server body, a bare list and a number', () => {
    expect(taskCountOf({ data: [task('1', 5), task('2', 9)] })).toBe(2);
    expect(taskCountOf({ data: [] })).toBe(0);
    expect(taskCountOf([task('1', 5)])).toBe(1);
    expect(taskCountOf(3)).toBe(3);
    expect(taskCountOf(null)).toBe(0);
  });
});
