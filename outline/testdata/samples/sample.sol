pragma solidity ^0.8.0;
import "./Lib.sol";
contract Token is Base { uint256 public total; event Moved(address to); function move(address to) public {} function _hid() internal {} }
interface IToken { function total() external view returns (uint256); }
library Math { function add(uint a, uint b) internal pure returns (uint) { return a + b; } }
struct Pair { uint a; }
