import { SyncOutlined } from '@ant-design/icons';
import { TASK_BUTTON_HIDE_MS } from '@nimbus/contract';
import { Badge, Button, Tooltip } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { api } from '../../../api/client';
import { onLiveMessage } from '../../../api/events';
import { taskCountOf, type Task } from '../api';
import { localValue } from '../../../stores/storage';
import { TASK_PROGRESS_ROLE_KEY } from '../../../lib/task-progress-role';

/**
 * spec §4: shown with the task-progress role while tasks run or recently ran, spinning while
 * count > 0; once the count falls to 0 it stays 5 s, then hides.
 */
export function TaskProgressButton() {
  const { t } = useTranslation('layout');
  const navigate = useNavigate();
  const [count, setCount] = useState(0);
  const [visible, setVisible] = useState(false);
  const hideTimer = useRef<number | null>(null);

  useEffect(() => {
    const apply = (next: number) => {
      setCount(next);
      if (hideTimer.current !== null) window.clearTimeout(hideTimer.current);
      hideTimer.current = null;
      if (next > 0) setVisible(true);
      else hideTimer.current = window.setTimeout(() => setVisible(false), TASK_BUTTON_HIDE_MS);
    };
    const off = onLiveMessage('taskCountChange', (message) => apply(taskCountOf(message.body)));
    // tasks that started before this page loaded: no count message will announce them
    let cancelled = false;
    if (localValue.get(TASK_PROGRESS_ROLE_KEY) === '1') {
      api
        .get<Task[]>('/cloud/task/progress', undefined, { silent: true })
        .then((tasks) => {
          const running = taskCountOf(tasks);
          if (!cancelled && running > 0) apply(running);
        })
        .catch(() => undefined);
    }
    return () => {
      cancelled = true;
      off();
      if (hideTimer.current !== null) window.clearTimeout(hideTimer.current);
    };
  }, []);

  if (!visible || localValue.get(TASK_PROGRESS_ROLE_KEY) !== '1') return null;
  return (
    <Tooltip title={t('tasks.tooltip', { count })}>
      <Badge count={count} size="small" offset={[-4, 4]}>
        <Button
          type="text"
          icon={<SyncOutlined spin={count > 0} />}
          aria-label={t('tasks.tooltip', { count })}
          data-testid="task-progress-button"
          data-count={count}
          onClick={() => void navigate('/setting/taskProgress')}
        />
      </Badge>
    </Tooltip>
  );
}
