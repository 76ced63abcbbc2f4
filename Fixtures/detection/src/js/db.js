const { Sequelize } = require('sequelize');
const sequelize = new Sequelize('shop', 'shop_app', '7BT5bey.nEUEt74IjPE0', { host: 'db.internal', dialect: 'postgres' });
const local = new Sequelize('shop', 'shop_app', process.env.DB_PASSWORD, { dialect: 'postgres' });
module.exports = { sequelize };
