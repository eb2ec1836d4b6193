/**
 * The in-console notice of a new lead: the event stream (`/api/events`, event `lead`) names the leads
 * just given to the signed-in user — to them only — and each shows once as a notification linking to
 * /clue_management, with whether the WeChat notice went out. Mounted by the layout for users whose
 * menus grant the leads list.
 */
import { App } from 'antd';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { subscribeMediaEvents, type LeadEvent } from '@/api/materials/events';
import { useEngagementT } from '../i18n';

export default function LeadNotifier() {
  const { t } = useEngagementT();
  const { notification } = App.useApp();
  const navigate = useNavigate();
  useEffect(() => {
    const show = (rows: LeadEvent[]) => {
      for (const n of rows) {
        notification.info({
          key: `lead-${n.id}`,
          title: t('notice.title', { name: n.name }),
          description: (
            <span data-testid={`lead-notice-${n.lead_id}`}>
              {`${t(`platform.${n.platform}`, { defaultValue: n.platform })} · ${t(`lead.sources.${n.source}`, { defaultValue: n.source })}：${n.content}`}
            </span>
          ),
          onClick: () => navigate('/clue_management'),
          duration: 8,
        });
      }
    };
    return subscribeMediaEvents({ onLead: show });
  }, [notification, navigate, t]);
  return null;
}
