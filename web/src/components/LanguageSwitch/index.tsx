import { GlobalOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Dropdown } from 'antd';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, type Language } from '@/config';
import { changeLanguage } from '@/i18n';

/** zh-CN (default) / English; the choice is stored and sent as accept-language. */
export default function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const current = (LANGUAGES as readonly string[]).includes(i18n.language) ? (i18n.language as Language) : 'zh-CN';

  const select = async (lng: Language) => {
    if (lng === current) return;
    await changeLanguage(lng);
    // server messages and some labels are localized by accept-language
    await queryClient.invalidateQueries();
  };

  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectedKeys: [current],
        items: LANGUAGES.map((lng) => ({
          key: lng,
          label: <span data-testid={`lang-${lng}`}>{t(`lang.${lng}`)}</span>,
        })),
        onClick: ({ key }) => void select(key as Language),
      }}
    >
      <Button type="text" icon={<GlobalOutlined />} data-testid="lang-switch" aria-label={t('layout.language')}>
        {t(`lang.${current}`)}
      </Button>
    </Dropdown>
  );
}
