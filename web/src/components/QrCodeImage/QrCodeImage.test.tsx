import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import QrCodeImage, { QR_DEFAULTS, errorLevel } from '.';

describe('QrCodeImage (SPEC §9 QR defaults)', () => {
  it('defaults: size 100, logo 30, padding 5, correct level 2 (H)', () => {
    expect(QR_DEFAULTS).toEqual({ size: 100, logoSize: 30, padding: 5, correctLevel: 2 });
    render(<QrCodeImage value="https://example.test/a" logo="/logo.png" />);
    const box = screen.getByTestId('qrcode');
    expect(box).toHaveAttribute('data-level', 'H');
    expect(box.style.padding).toBe('5px');
    const svg = box.querySelector('svg')!;
    expect(svg.getAttribute('width')).toBe('100');
    const logo = box.querySelector('image')!;
    expect(logo.getAttribute('href') ?? logo.getAttribute('xlink:href')).toBe('/logo.png');
    // the logo is drawn in module units: 30 of the 100 pixels
    const modules = Number(svg.getAttribute('viewBox')!.split(' ')[2]);
    expect((Number(logo.getAttribute('width')) / modules) * 100).toBeCloseTo(30, 0);
  });

  it('maps the QRCode.js level numbers', () => {
    expect([0, 1, 2, 3].map(errorLevel)).toEqual(['M', 'L', 'H', 'Q']);
  });
});
