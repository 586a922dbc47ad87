/**
 * The panel's options editor as Grafana's panel editor builds it: the plugin's option supplier
 * (setPanelOptions) run on @grafana/data's PanelOptionsEditorBuilder, each item drawn by the
 * editor registered for its id in standardEditorsRegistry. Grafana core registers those editors
 * at start-up (public/app/core/components/OptionsUI/registry.tsx) from @grafana/ui inputs; this
 * host registers the ones the plugin uses from the host's own @grafana/ui, so the editor runs on
 * each release's components and React.
 */
import { PanelOptionsEditorBuilder, PanelPlugin, StandardEditorsRegistryItem, standardEditorsRegistry } from '@grafana/data';
import { InlineSwitch, Input, RadioButtonGroup, Select } from '@grafana/ui';
import * as React from 'react';

type EditorProps = { value: unknown; onChange: (v: unknown) => void; item: { settings?: Record<string, unknown>; id: string } };

const editors: Array<{ id: string; editor: React.ComponentType<EditorProps> }> = [
  {
    id: 'select',
    editor: ({ value, onChange, item }) => (
      <Select
        value={value as string}
        options={(item.settings?.options as Array<{ value: string; label: string }>) ?? []}
        allowCustomValue={Boolean(item.settings?.allowCustomValue)}
        onChange={(v) => onChange(v.value)}
      />
    ),
  },
  {
    id: 'radio',
    editor: ({ value, onChange, item }) => (
      <RadioButtonGroup value={value as string} options={(item.settings?.options as Array<{ value: string; label: string }>) ?? []} onChange={(v) => onChange(v)} />
    ),
  },
  {
    id: 'number',
    editor: ({ value, onChange }) => (
      <Input type="number" value={String(value ?? '')} onChange={(e) => onChange(Number((e.target as HTMLInputElement).value))} />
    ),
  },
  {
    id: 'text',
    editor: ({ value, onChange }) => <Input value={String(value ?? '')} onChange={(e) => onChange((e.target as HTMLInputElement).value)} />,
  },
  {
    id: 'strings',
    editor: ({ value, onChange }) => (
      <Input value={((value as string[]) ?? []).join(',')} onChange={(e) => onChange((e.target as HTMLInputElement).value.split(',').filter(Boolean))} />
    ),
  },
  { id: 'boolean', editor: ({ value, onChange }) => <InlineSwitch value={Boolean(value)} onChange={(e) => onChange((e.target as HTMLInputElement).checked)} /> },
];

let registered = false;
function registerEditors() {
  if (registered) {
    return;
  }
  registered = true;
  for (const e of editors) {
    if (!standardEditorsRegistry.getIfExists(e.id)) {
      standardEditorsRegistry.register({ id: e.id, name: e.id, editor: e.editor } as unknown as StandardEditorsRegistryItem);
    }
  }
}

export interface OptionItem {
  path: string;
  name: string;
  category: string[];
  defaultValue: unknown;
  editor: React.ComponentType<EditorProps>;
  settings?: Record<string, unknown>;
  id: string;
}

/** The plugin's option items, built by the host's @grafana/data as Grafana's panel editor does. */
export function optionItems(plugin: PanelPlugin): OptionItem[] {
  registerEditors();
  const builder = new PanelOptionsEditorBuilder();
  plugin.getPanelOptionsSupplier()(builder as never, { data: [], options: {} } as never);
  return builder.getItems() as unknown as OptionItem[];
}

/** The editor: one row per option (its name and the registered editor), values kept in state. */
export function OptionsEditor({ plugin, initial, onChange }: { plugin: PanelPlugin; initial: Record<string, unknown>; onChange: (o: Record<string, unknown>) => void }) {
  const items = React.useMemo(() => optionItems(plugin), [plugin]);
  const [values, setValues] = React.useState(() => Object.fromEntries(items.map((i) => [i.path, initial[i.path] ?? i.defaultValue])));
  return (
    <div data-testid="host-options-editor">
      {items.map((item) => {
        const Editor = item.editor;
        return (
          <div key={item.path} data-testid={`host-option-${item.path}`} data-category={item.category.join('/')} style={{ margin: '6px 0' }}>
            <label>{item.name}</label>
            <Editor
              value={values[item.path]}
              item={item}
              onChange={(v) => {
                const next = { ...values, [item.path]: v };
                setValues(next);
                onChange(next);
              }}
            />
          </div>
        );
      })}
    </div>
  );
}
