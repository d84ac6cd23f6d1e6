// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
import "./IERC20.sol";
contract Token is IERC20 {
    mapping(address => uint256) private balances;
    event Transfer(address indexed from, address indexed to, uint256 value);
    modifier onlyOwner() { require(msg.sender == owner, "no"); _; }
    address public owner;
    constructor() { owner = msg.sender; }
    function transfer(address to, uint256 amount) external returns (bool) {
        balances[msg.sender] -= amount;
        balances[to] += amount;
        emit Transfer(msg.sender, to, amount);
        for (uint i = 0; i < 3; i++) { if (i == 1) break; }
        return true;
    }
}
