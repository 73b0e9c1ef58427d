// One circuit per tool: after `failures` failures in a row (errors of ours or timeouts) the
// tool is refused for `cooldownMs`, then one call is let through to try it again.
export class CircuitBreaker {
  private readonly circuits = new Map<string, { failures: number; openUntil: number }>();

  constructor(private readonly failures: number, private readonly cooldownMs: number, private readonly now: () => number = Date.now) {}

  /** seconds until the circuit closes again, or 0 when calls may go through */
  retryAfter(tool: string): number {
    const circuit = this.circuits.get(tool);
    if (!circuit || circuit.openUntil <= this.now()) return 0;
    return Math.ceil((circuit.openUntil - this.now()) / 1000);
  }

  succeeded(tool: string) {
    this.circuits.delete(tool);
  }

  failed(tool: string) {
    const circuit = this.circuits.get(tool) ?? { failures: 0, openUntil: 0 };
    circuit.failures += 1;
    // Half-open after the cooldown: one more failure opens it again at once.
    if (circuit.failures >= this.failures) circuit.openUntil = this.now() + this.cooldownMs;
    this.circuits.set(tool, circuit);
  }
}
