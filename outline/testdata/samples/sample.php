<?php
namespace App\Models;

use App\Base;
use Some\Other as Alias;

interface HasName {
    public function name(): string;
}

trait Greets {
    public function greet() {}
}

class User extends Base implements HasName {
    public const TABLE = "users";
    private string $secret;
    public int $age = 0;

    public function __construct(string $name) {}
    public function name(): string { return ""; }
    protected function hidden() {}
    public static function make(): self { return new self(""); }
}

enum Status: string {
    case Active = "a";
    case Off = "o";
}

function helper($x) { return $x; }

const VERSION = "1";
