/** Local storage key: set while the user's role may see the task progress button. */
export const TASK_PROGRESS_ROLE_KEY = 'taskProgressRole';
