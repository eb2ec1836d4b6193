/**
 * A burnt-in text's style (title or subtitles): font from the font library (or the built-in one),
 * size 16–160, colour #RRGGBB, position top / middle / bottom. Fields of the surrounding form, under
 * `name` (e.g. ['title', 'style']).
 */
import { Col, Form, Input, InputNumber, Radio, Row, Select } from 'antd';
import type { PickMedia } from '@/api/clip/types';
import { useClipT } from '../i18n';
import { isColor, POSITIONS, SIZE_MAX, SIZE_MIN, toHexColor } from '../rules';

export interface TextStyleFieldsProps {
  name: (string | number)[];
  fonts: PickMedia[];
  fontsLoading?: boolean;
  testId: string;
  hidden?: boolean;
}

const BUILTIN_FONT = 0;

/**
 * '#RRGGBB': the browser's colour well next to the hex text (antd's ColorPicker would pull its panel
 * into the shared antd chunk the sign-in page loads).
 */
function ColorField({ value, onChange, testId }: { value?: string; onChange?: (v: string) => void; testId: string }) {
  return (
    <Input
      value={value}
      onChange={(e) => onChange?.(e.target.value)}
      maxLength={7}
      placeholder="#RRGGBB"
      data-testid={testId}
      prefix={
        <input
          type="color"
          className="cm-color-well"
          value={isColor(value) ? value.toLowerCase() : '#000000'}
          onChange={(e) => onChange?.(e.target.value)}
          aria-label={value}
          data-testid={`${testId}-well`}
        />
      }
    />
  );
}

export default function TextStyleFields({ name, fonts, fontsLoading, testId, hidden }: TextStyleFieldsProps) {
  const { t } = useClipT();
  return (
    <Row gutter={12} style={hidden ? { display: 'none' } : undefined} data-testid={`${testId}-style`}>
      <Col xs={24} md={7}>
        <Form.Item
          name={[...name, 'font_id']}
          label={t('style.font')}
          hidden={hidden}
          getValueProps={(v: number | null | undefined) => ({ value: v ?? BUILTIN_FONT })}
          normalize={(v: number) => (v === BUILTIN_FONT ? null : v)}
        >
          <Select<number>
            showSearch={{ optionFilterProp: 'label' }}
            loading={fontsLoading}
            options={[
              { value: BUILTIN_FONT, label: t('style.builtinFont') },
              ...fonts.map((f) => ({ value: f.id, label: f.name, disabled: f.state !== 'ready' })),
            ]}
            data-testid={`${testId}-font`}
          />
        </Form.Item>
      </Col>
      <Col xs={12} md={5}>
        <Form.Item
          name={[...name, 'size']}
          label={t('style.size')}
          hidden={hidden}
          rules={[{ type: 'number', min: SIZE_MIN, max: SIZE_MAX, message: t('style.sizeRange', { min: SIZE_MIN, max: SIZE_MAX }) }]}
        >
          <InputNumber<number> min={SIZE_MIN} max={SIZE_MAX} precision={0} style={{ width: '100%' }} data-testid={`${testId}-size`} />
        </Form.Item>
      </Col>
      <Col xs={12} md={5}>
        <Form.Item
          name={[...name, 'color']}
          label={t('style.color')}
          hidden={hidden}
          normalize={(v: unknown) => toHexColor(v)}
          rules={[{ validator: async (_, v) => (isColor(v) ? undefined : Promise.reject(new Error(t('style.colorInvalid')))) }]}
        >
          <ColorField testId={`${testId}-color`} />
        </Form.Item>
      </Col>
      <Col xs={24} md={7}>
        <Form.Item name={[...name, 'position']} label={t('style.position')} hidden={hidden}>
          <Radio.Group
            optionType="button"
            size="small"
            options={POSITIONS.map((p) => ({ value: p, label: t(`style.positions.${p}`) }))}
            data-testid={`${testId}-position`}
          />
        </Form.Item>
      </Col>
    </Row>
  );
}
