/**
 * Generated-path coverage for the XState machines (ARCHITECTURE.md principle 6): walks every state reachable
 * with the given events (xstate/graph's adjacency map) and reports which state nodes and which transition
 * definitions (each guarded branch, `after` and actor done/error transition counted apart) were never reached.
 * A test asserts both lists are empty, so a new state or transition without a path fails the build.
 */
import type { AnyMachineSnapshot, AnyStateMachine, AnyStateNode, EventObject } from 'xstate';
import { getStateNodes } from 'xstate';
import { getAdjacencyMap, getShortestPaths } from 'xstate/graph';

export interface CoverageOptions<TEvent extends EventObject> {
  /** Candidate events for a snapshot (include payload variants that take different branches). */
  events: (snapshot: AnyMachineSnapshot) => readonly TEvent[];
  /** What makes two snapshots the same state for the walk; default: the state value. */
  serialize?: (snapshot: AnyMachineSnapshot) => string;
  input?: unknown;
}

export interface Coverage {
  states: string[];
  unvisitedStates: string[];
  transitions: string[];
  unvisitedTransitions: string[];
  /**
   * For every edge walked: the events from the start through that edge, the state they end in, and the
   * transition definitions the edge's last event takes (`covers`).
   */
  paths: Array<{ target: string; events: EventObject[]; covers: string[] }>;
}

/**
 * The shortest path for each transition definition: enough to replay every transition on a live actor when
 * parallel regions make the walk's edges many (one per combination of the regions' states).
 */
export function onePathPerTransition(coverage: Coverage): Coverage['paths'] {
  const chosen = new Map<string, Coverage['paths'][number]>();
  for (const path of coverage.paths) {
    for (const key of path.covers) {
      const known = chosen.get(key);
      if (!known || path.events.length < known.events.length) chosen.set(key, path);
    }
  }
  return [...new Set(chosen.values())];
}

function allNodes(node: AnyStateNode): AnyStateNode[] {
  return [node, ...Object.values(node.states).flatMap((child) => allNodes(child as AnyStateNode))];
}

function transitionKey(source: AnyStateNode, eventType: string, index: number): string {
  return `${source.id} --${eventType}#${index}`;
}

export function machineCoverage<TEvent extends EventObject>(
  machine: AnyStateMachine,
  options: CoverageOptions<TEvent>,
): Coverage {
  const nodes = allNodes(machine.root).filter((node) => node !== machine.root);
  const keys = new Map<unknown, string>();
  for (const node of nodes) {
    for (const [eventType, definitions] of node.transitions) {
      definitions.forEach((definition, index) => keys.set(definition, transitionKey(node, eventType, index)));
    }
  }
  const serializeState = (snapshot: AnyMachineSnapshot): string =>
    options.serialize ? options.serialize(snapshot) : JSON.stringify(snapshot.value);
  // Delayed transitions are walked as their internal events; the timing itself is tested on a live actor.
  const delayed = nodes.flatMap((node) => node.after.map((definition) => ({ type: definition.eventType })));
  const traversal = {
    events: (snapshot: AnyMachineSnapshot) => [...options.events(snapshot), ...delayed] as TEvent[],
    serializeState,
    input: options.input,
  };
  const adjacency = getAdjacencyMap(machine, traversal);

  const visitedStates = new Set<string>();
  const visitedTransitions = new Set<string>();
  for (const { state, transitions } of Object.values(adjacency)) {
    for (const node of getStateNodes(machine.root, state.value)) visitedStates.add(node.id);
    const steps: Array<{ event: EventObject }> = Object.values(transitions);
    for (const { event } of steps) {
      for (const definition of machine.getTransitionData(state, event)) {
        const key = keys.get(definition);
        if (key) visitedTransitions.add(key);
      }
    }
  }
  // One replayable path per edge of the walk: the shortest way to its source state, then its event.
  const shortest = new Map(
    getShortestPaths(machine, traversal).map((path) => [
      serializeState(path.state),
      path.steps.map((step) => step.event).filter((event) => event.type !== 'xstate.init'),
    ]),
  );
  const paths: Coverage['paths'] = [];
  for (const [source, { state, transitions }] of Object.entries(adjacency)) {
    const edges: Array<{ event: EventObject; state: AnyMachineSnapshot }> = Object.values(transitions);
    for (const edge of edges) {
      // Events the state ignores are not edges; replaying them (e.g. as elapsed time) would mean something else.
      const taken = machine.getTransitionData(state, edge.event);
      if (taken.length === 0) continue;
      paths.push({
        target: serializeState(edge.state),
        events: [...(shortest.get(source) ?? []), edge.event],
        covers: taken.map((definition) => keys.get(definition)).filter((key) => key !== undefined),
      });
    }
  }
  return {
    states: nodes.map((node) => node.id),
    unvisitedStates: nodes.map((node) => node.id).filter((id) => !visitedStates.has(id)),
    transitions: [...keys.values()],
    unvisitedTransitions: [...keys.values()].filter((key) => !visitedTransitions.has(key)),
    paths,
  };
}
