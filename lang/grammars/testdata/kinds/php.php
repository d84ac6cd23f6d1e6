<?php
namespace App;
use Foo\Bar;
interface Greets { public function greet(string $name): string; }
final class Greeter implements Greets {
    private array $seen = [];
    public function __construct(private readonly string $prefix = "Hi") {}
    public function greet(string $name): string {
        $this->seen[] = $name;
        return "{$this->prefix}, $name!";
    }
}
function total(array $xs): int {
    $sum = 0;
    foreach ($xs as $k => $x) { if ($x > 0) { $sum += $x; } }
    return $sum ?? 0;
}
$g = new Greeter();
echo $g->greet('world'), PHP_EOL;
$f = fn($x) => $x * 2;
$r = match(true) { default => Bar::go() };
