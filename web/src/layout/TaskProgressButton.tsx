import { SyncOutlined } from '@ant-design/icons';
import { TASK_BUTTON_HIDE_MS } from '@nimbus/contract';
import { Badge, Button, Tooltip } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { onLiveMessage } from '../api/events';
import { localValue } from '../stores/storage';

export const TASK_PROGRESS_ROLE_KEY = 'taskProgressRole';

/**
 * spec §4: shown with the task-progress role while tasks run, spinning while count > 0;
 * once the count falls to 0 it stays 5 s, then hides.
 */
export function TaskProgressButton() {
  const { t } = useTranslation('layout');
  const navigate = useNavigate();
  const [count, setCount] = useState(0);
  const [visible, setVisible] = useState(false);
  const hideTimer = useRef<number | null>(null);

  useEffect(
    () =>
      onLiveMessage('taskCountChange', (message) => {
        const body = message.body;
        const next = Array.isArray(body) ? body.length : typeof body === 'number' ? body : 0;
        setCount(next);
        if (hideTimer.current !== null) window.clearTimeout(hideTimer.current);
        hideTimer.current = null;
        if (next > 0) setVisible(true);
        else hideTimer.current = window.setTimeout(() => setVisible(false), TASK_BUTTON_HIDE_MS);
      }),
    [],
  );
  useEffect(
    () => () => {
      if (hideTimer.current !== null) window.clearTimeout(hideTimer.current);
    },
    [],
  );

  if (!visible || localValue.get(TASK_PROGRESS_ROLE_KEY) !== '1') return null;
  return (
    <Tooltip title={t('tasks.tooltip', { count })}>
      <Badge count={count} size="small" offset={[-4, 4]}>
        <Button
          type="text"
          icon={<SyncOutlined spin={count > 0} />}
          aria-label={t('tasks.tooltip', { count })}
          data-testid="task-progress-button"
          onClick={() => void navigate('/setting/taskProgress')}
        />
      </Badge>
    </Tooltip>
  );
}
