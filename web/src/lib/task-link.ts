/** Link that opens the task's folder and highlights its file (spec §2 route `/`). */
export function taskLink(task: { path: string; name: string }): string {
  const params = new URLSearchParams({ path: task.path || '/', highlight: task.name });
  return `/?${params.toString()}`;
}
