/** /user_library — every authorized account with its video, play, comment and like counts; filters by platform, group and status. */
import PageHeader from '@/components/PageHeader';
import { useMatrixT } from '../i18n';
import AccountsTable from '../shared/AccountsTable';

export default function UserLibraryPage() {
  const { t } = useMatrixT();
  return (
    <div data-testid="user-library-page">
      <PageHeader title={t('common:menu.userLibrary')} subTitle={t('library.subtitle')} />
      <AccountsTable mode="library" />
    </div>
  );
}
