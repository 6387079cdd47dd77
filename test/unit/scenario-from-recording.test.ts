// runtime/scaffold/scenario-from-messages.ts as the editor's "New Scenario from Recorded
// Conversation" uses it (#31 items 3, 4, 9): the recorded bot texts are the turns' expectations,
// no `tools: {}` / `text: null` noise, the save dialog's answer is a scenario file name, and the
// error says once what is wrong.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  RecordingError,
  scenarioFromRecording,
  scenarioOutputPath,
} from '../../runtime/scaffold/scenario-from-messages';

test('a message list: each turn expects the recorded bot text; no tools: {} or text: null', () => {
  const sc = scenarioFromRecording(
    [
      { role: 'user', content: 'where is my order?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', function: { name: 'track', arguments: '{"order":"A-1"}' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: '{"status":"shipped"}' },
      { role: 'assistant', content: 'It has shipped.' },
      { role: 'user', content: 'thanks' },
      { role: 'assistant', content: 'Any time.' },
    ],
    'chat',
  );
  assert.deepEqual(sc, {
    name: 'chat',
    turns: [
      {
        user: 'where is my order?',
        completions: [
          { tool_calls: [{ id: 'c1', tool_name: 'track', tool_args: { order: 'A-1' } }] },
          { text: 'It has shipped.' },
        ],
        tools: { track: { value: { status: 'shipped' } } },
        expect: { transcript: { snapshot: 'It has shipped.' } },
      },
      {
        user: 'thanks',
        completions: [{ text: 'Any time.' }],
        expect: { transcript: { snapshot: 'Any time.' } },
      },
    ],
  });
});

test("simulate's JSON: each turn expects the bot lines the user saw (after the hooks)", () => {
  const sc = scenarioFromRecording({
    events: [{ seq: 1, turn: 1, point: 'model_response', before: { text: 'Hi', tool_calls: [] } }],
    transcript: [
      { role: 'user', text: 'hello', turn: 1 },
      { role: 'bot', text: 'HI', turn: 1 },
    ],
  });
  assert.deepEqual(sc.turns, [
    { user: 'hello', completions: [{ text: 'Hi' }], expect: { transcript: { snapshot: 'HI' } } },
  ]);
});

test('the save dialog’s answer: a doubled suffix undone, a bare name made a scenario file', () => {
  assert.equal(scenarioOutputPath('/a/chat.scenario.yaml.scenario.yaml'), '/a/chat.scenario.yaml');
  assert.equal(scenarioOutputPath('/a/chat.scenario.yaml'), '/a/chat.scenario.yaml');
  assert.equal(scenarioOutputPath('/a/chat.scenario.json'), '/a/chat.scenario.json');
  assert.equal(scenarioOutputPath('/a/chat.yaml'), '/a/chat.scenario.yaml');
  assert.equal(scenarioOutputPath('/a/chat'), '/a/chat.scenario.yaml');
});

test('not a recording: the reason, without repeating "not a recorded conversation" (the caller says it)', () => {
  assert.throws(
    () => scenarioFromRecording({ foo: 1 }),
    (err: unknown) =>
      err instanceof RecordingError &&
      /^expected a list of chat messages/.test(err.message) &&
      !/not a recorded conversation/.test(err.message),
  );
});
