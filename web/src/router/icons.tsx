import {
  AccountBookOutlined,
  ApartmentOutlined,
  AppstoreOutlined,
  AudioOutlined,
  BookOutlined,
  ControlOutlined,
  CustomerServiceOutlined,
  DashboardOutlined,
  EyeOutlined,
  FileSearchOutlined,
  FileTextOutlined,
  FolderOutlined,
  FontSizeOutlined,
  GiftOutlined,
  HomeOutlined,
  LoginOutlined,
  MenuOutlined,
  NodeExpandOutlined,
  PictureOutlined,
  PlaySquareOutlined,
  ProfileOutlined,
  RiseOutlined,
  SafetyOutlined,
  ScheduleOutlined,
  ScissorOutlined,
  SearchOutlined,
  SettingOutlined,
  ShopOutlined,
  StarOutlined,
  TagsOutlined,
  TeamOutlined,
  UserOutlined,
  VideoCameraOutlined,
  WifiOutlined,
} from '@ant-design/icons';
import type { ReactNode } from 'react';

const icons = {
  AccountBookOutlined: <AccountBookOutlined />,
  ApartmentOutlined: <ApartmentOutlined />,
  AppstoreOutlined: <AppstoreOutlined />,
  AudioOutlined: <AudioOutlined />,
  BookOutlined: <BookOutlined />,
  ControlOutlined: <ControlOutlined />,
  CustomerServiceOutlined: <CustomerServiceOutlined />,
  DashboardOutlined: <DashboardOutlined />,
  EyeOutlined: <EyeOutlined />,
  FileSearchOutlined: <FileSearchOutlined />,
  FileTextOutlined: <FileTextOutlined />,
  FolderOutlined: <FolderOutlined />,
  FontSizeOutlined: <FontSizeOutlined />,
  GiftOutlined: <GiftOutlined />,
  HomeOutlined: <HomeOutlined />,
  LoginOutlined: <LoginOutlined />,
  MenuOutlined: <MenuOutlined />,
  NodeExpandOutlined: <NodeExpandOutlined />,
  PictureOutlined: <PictureOutlined />,
  PlaySquareOutlined: <PlaySquareOutlined />,
  ProfileOutlined: <ProfileOutlined />,
  RiseOutlined: <RiseOutlined />,
  SafetyOutlined: <SafetyOutlined />,
  ScheduleOutlined: <ScheduleOutlined />,
  ScissorOutlined: <ScissorOutlined />,
  SearchOutlined: <SearchOutlined />,
  SettingOutlined: <SettingOutlined />,
  ShopOutlined: <ShopOutlined />,
  StarOutlined: <StarOutlined />,
  TagsOutlined: <TagsOutlined />,
  TeamOutlined: <TeamOutlined />,
  UserOutlined: <UserOutlined />,
  VideoCameraOutlined: <VideoCameraOutlined />,
  WifiOutlined: <WifiOutlined />,
} satisfies Record<string, ReactNode>;

export type IconName = keyof typeof icons;

/** Icon by name (server menus name antd icons); unknown names get a neutral icon. */
export function renderIcon(name: string | null | undefined): ReactNode {
  if (!name) return undefined;
  if (name in icons) return icons[name as IconName];
  if (name.startsWith('Setting')) return icons.SettingOutlined;
  return icons.AppstoreOutlined;
}
