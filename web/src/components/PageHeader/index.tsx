import { Typography } from 'antd';
import type { ReactNode } from 'react';

export interface PageHeaderProps {
  title: ReactNode;
  subTitle?: ReactNode;
  extra?: ReactNode;
  children?: ReactNode;
}

/** Title row of every console page: title, optional subtitle and actions on the right. */
export default function PageHeader({ title, subTitle, extra, children }: PageHeaderProps) {
  return (
    <div className="cm-page-header">
      <div className="cm-page-header-row">
        <div className="cm-page-header-title">
          <Typography.Title level={4} style={{ margin: 0 }} data-testid="page-title">
            {title}
          </Typography.Title>
          {subTitle ? <Typography.Text type="secondary">{subTitle}</Typography.Text> : null}
        </div>
        {extra ? <div className="cm-page-header-extra">{extra}</div> : null}
      </div>
      {children}
    </div>
  );
}
