/**
 * QR code image (SPEC §2, §9 "QR code defaults: size 100, logo size 30, padding 5, correct level 2").
 * Built on antd's QRCode (no extra package). The correct level follows QRCode.js numbering, where
 * 1 = L, 0 = M, 3 = Q, 2 = H: the default 2 is the highest level, H, which a logo in the middle needs.
 */
import { QRCode } from 'antd';

export const QR_DEFAULTS = { size: 100, logoSize: 30, padding: 5, correctLevel: 2 } as const;

export type CorrectLevel = 0 | 1 | 2 | 3;
const LEVELS: Record<CorrectLevel, 'L' | 'M' | 'Q' | 'H'> = { 1: 'L', 0: 'M', 3: 'Q', 2: 'H' };

export function errorLevel(level: number): 'L' | 'M' | 'Q' | 'H' {
  return LEVELS[level as CorrectLevel] ?? 'H';
}

export interface QrCodeImageProps {
  value: string;
  size?: number;
  /** Image address of a logo drawn in the middle. */
  logo?: string;
  logoSize?: number;
  padding?: number;
  /** QRCode.js numbering: 1 L, 0 M, 3 Q, 2 H. */
  correctLevel?: number;
  color?: string;
  bgColor?: string;
  /** 'svg' (default) or 'canvas'. */
  type?: 'svg' | 'canvas';
  testId?: string;
}

export default function QrCodeImage({
  value,
  size = QR_DEFAULTS.size,
  logo,
  logoSize = QR_DEFAULTS.logoSize,
  padding = QR_DEFAULTS.padding,
  correctLevel = QR_DEFAULTS.correctLevel,
  color,
  bgColor = '#fff',
  type = 'svg',
  testId = 'qrcode',
}: QrCodeImageProps) {
  return (
    <div
      data-testid={testId}
      data-level={errorLevel(correctLevel)}
      style={{ display: 'inline-block', padding, background: bgColor, lineHeight: 0, width: size + padding * 2, boxSizing: 'border-box' }}
    >
      <QRCode
        value={value}
        size={size}
        type={type}
        icon={logo}
        iconSize={logoSize}
        errorLevel={errorLevel(correctLevel)}
        color={color}
        bgColor={bgColor}
        bordered={false}
        style={{ padding: 0 }}
      />
    </div>
  );
}
