/**
 * /ai_voice — AI voice (docs/api-ai.md): write a script and create a voice-over, the voice tasks (play,
 * download, import into /speak), voice cloning. One page serves every AI-create route of SPEC §2 (zh:
 * /ai_voice, /ai_index_new, /NewAiVoiceIndex, /AiVoiceIndex, /ai_voice_new, /new_ai_create; en:
 * /ai_index, /ai_voice): they are versions of this one screen (docs/spec-decisions.md "AI voice").
 */
import { Tabs } from 'antd';
import { useState } from 'react';
import PageHeader from '@/components/PageHeader';
import { useAiT } from '../i18n';
import ClonePanel from './ClonePanel';
import CreatePanel from './CreatePanel';
import TasksPanel from './TasksPanel';

export default function AiVoicePage() {
  const { t } = useAiT();
  const [tab, setTab] = useState('create');

  return (
    <div data-testid="ai-voice-page">
      <PageHeader title={t('common:menu.aiVoice')} subTitle={t('subtitle')} />
      <Tabs
        activeKey={tab}
        onChange={setTab}
        items={[
          {
            key: 'create',
            label: <span data-testid="tab-create">{t('tab.create')}</span>,
            children: (
              // the queued task marked the list stale; the tab shows it
              <CreatePanel onQueued={() => setTab('tasks')} />
            ),
          },
          { key: 'tasks', label: <span data-testid="tab-tasks">{t('tab.tasks')}</span>, children: <TasksPanel /> },
          { key: 'clone', label: <span data-testid="tab-clone">{t('tab.clone')}</span>, children: <ClonePanel />, destroyOnHidden: true },
        ]}
      />
    </div>
  );
}
