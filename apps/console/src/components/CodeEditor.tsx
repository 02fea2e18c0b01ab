import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { javascript } from '@codemirror/lang-javascript';
import { bracketMatching, defaultHighlightStyle, indentOnInput, syntaxHighlighting } from '@codemirror/language';
import { EditorState } from '@codemirror/state';
import { drawSelection, EditorView, highlightActiveLine, keymap, lineNumbers } from '@codemirror/view';
import { useEffect, useRef } from 'react';

/** The editor's own look: in its shadow root, the console's style sheet does not reach it. */
const THEME = EditorView.theme({
  '&': { height: '28rem', fontSize: '13px', backgroundColor: '#ffffff', color: '#111827' },
  '&.cm-focused': { outline: 'none', boxShadow: '0 0 0 3px #f59e0b' },
  '.cm-scroller': { fontFamily: "ui-monospace, 'SFMono-Regular', Menlo, Consolas, monospace" },
  '.cm-gutters': { backgroundColor: '#f5f6f7', color: '#4b5563', borderRight: '1px solid #d1d5db' },
  '.cm-activeLine, .cm-activeLineGutter': { backgroundColor: '#eef6f4' },
});

/**
 * A JavaScript editor (CodeMirror 6, bundled) with syntax highlighting, line numbers, undo and
 * bracket matching. It lives in a shadow root of its host element: there CodeMirror adds its
 * styles as a constructed style sheet (adoptedStyleSheets), which the console's CSP
 * (`style-src 'self'`) leaves alone, where in the document itself it would add `<style>`
 * elements the CSP refuses. It evaluates nothing. Tab indents; Escape then Tab leaves the editor
 * (CodeMirror's own rule), so keyboards are not trapped.
 *
 * The editor owns its text: `initial` is read once, and the page hears of every change. It is
 * never written back from the page's state, because that state runs behind the editor: an edit
 * landing between React's commit of the text before it and that commit's effects would be
 * replaced by the older text (a fast typist's, or a paste after select-all and Delete, lost). A
 * page that wants other text shows a new editor (a new `key`).
 */
export function CodeEditor({
  initial,
  onChange,
  label,
  describedBy,
}: {
  initial: string;
  onChange: (text: string) => void;
  label: string;
  describedBy?: string;
}) {
  const host = useRef<HTMLDivElement>(null);
  const latest = useRef(onChange);
  latest.current = onChange;

  useEffect(() => {
    const root = host.current!.shadowRoot ?? host.current!.attachShadow({ mode: 'open' });
    const editor = new EditorView({
      parent: root,
      root,
      state: EditorState.create({
        doc: initial,
        extensions: [
          lineNumbers(),
          history(),
          drawSelection(),
          indentOnInput(),
          bracketMatching(),
          highlightActiveLine(),
          syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
          javascript(),
          THEME,
          keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
          // tabindex: the editable content is already a tab stop; saying so lets checkers see the scroller has one.
          EditorView.contentAttributes.of({ 'aria-label': label, tabindex: '0', ...(describedBy ? { 'aria-describedby': describedBy } : {}) }),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) latest.current(update.state.doc.toString());
          }),
        ],
      }),
    });
    return () => editor.destroy();
    // The editor is made once (an empty list): `initial` is its first text, never pushed again.
  }, []);

  return <div ref={host} className="code-editor" data-testid="code-editor" />;
}
